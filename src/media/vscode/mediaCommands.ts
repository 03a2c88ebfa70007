// What the media feature loads on first use (the build bundles it into dist/mediaCommands.js, apart from the
// activation bundle): the gallery and player panels, Generate Image, the speech commands, the Media view's item
// commands and the chat's /image and /speak port. The Media view and the history load at activation.
export { chatMediaPort } from '../core/chatMedia';
export { GenerateImageCommand } from './generateImageCommand';
export { MediaItemCommands } from './mediaItemCommands';
export { MediaPanels } from './mediaPanel';
export { SpeechCommands } from './speechCommands';
export { vscodeUserInterface } from '../../ui/vscode/userInterface';
