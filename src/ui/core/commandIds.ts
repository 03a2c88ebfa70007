// The commands other folders name: advice buttons (ui/errorAdvice.ts), the status bar's menu, cross-feature links.
// Each id is written here once; the feature definition that implements it declares it through these constants.
// A command only its own feature names is written in that feature's command table (vscode/commands.ts) instead.
export const SHARED_COMMANDS = {
  setApiKey: 'modelGateway.setApiKey',
  rotateApiKey: 'modelGateway.rotateApiKey',
  clearApiKey: 'modelGateway.clearApiKey',
  setBaseUrl: 'modelGateway.setBaseUrl',
  testConnection: 'modelGateway.testConnection',
  openLogs: 'modelGateway.openLogs',
  showStatusMenu: 'modelGateway.showStatusMenu',
  listModels: 'modelGateway.listModels',
  showUsage: 'modelGateway.showUsage',
  newChat: 'modelGateway.newChat',
  changeChatProfile: 'modelGateway.changeChatProfile',
  profilesMenu: 'modelGateway.profiles.menu',
  profilesSwitch: 'modelGateway.profiles.switch',
} as const;
