// UI adapter: the diagnostics feature: Test Connection and its report (they load on first run), the
// connection's status bar item and its menu, and the log.
import { commandHandlers, lazyCommands } from '../../ui/vscode/commands';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import { ConnectionStatusBar } from '../../ui/vscode/statusBar';
import { vscodeProxySetting } from '../../ui/vscode/vscodeSettings';
import { lazy } from '../../util/lazy';
import { ReportDocument } from '../../ui/vscode/reportDocument';
import { DIAGNOSTICS_COMMANDS, REPORT_COMMANDS } from './commands';
import type { VideoApi } from '../../videos/core/api';

// Test Connection and its report view, on its first run.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const testConnectionCommand = lazy(() => require('./testConnectionCommand') as typeof import('./testConnectionCommand'));

export type DiagnosticsNeeds = Pick<SharedServices, 'context' | 'log' | 'connection' | 'clock' | 'register' | 'testing' | 'ui'> & {
  /** The video feature, activated after this one: asked for the active profile's dialect when the test runs. */
  videos?: () => Pick<VideoApi, 'dialect'>;
};

export const diagnosticsFeature = defineFeature({
  name: 'diagnostics',
  commands: DIAGNOSTICS_COMMANDS,
  views: [],
  activate({ context, log, connection, clock, register, testing, ui, videos }: DiagnosticsNeeds): void {
    // Test Connection and its report view load on its first run (testConnectionCommand.js), not at activation; the
    // report's document is registered now, for a report tab VS Code restores after a reload.
    const report = new ReportDocument({ scheme: 'model-gateway-report', name: 'Model Gateway Connection Test.md', title: 'connection test', command: 'Test Connection' });
    const testConnection = lazy(() => new (testConnectionCommand().TestConnectionCommand)({ connection, log, clock, proxySetting: () => vscodeProxySetting().url, report, ui: ui(), ...(videos && { dialect: () => videos().dialect() }) }));
    const statusBar = new ConnectionStatusBar(connection);
    context.subscriptions.push(statusBar, report, { dispose: () => testConnection.peek()?.dispose() });
    register(lazyCommands(REPORT_COMMANDS, () => testConnection().handlers()));
    register(commandHandlers({ showStatusMenu: DIAGNOSTICS_COMMANDS.showStatusMenu, openLogs: DIAGNOSTICS_COMMANDS.openLogs }, { showStatusMenu: () => statusBar.showMenu(), openLogs: () => log.show() }));
    if (TEST_BUILD && testing) testing.statusBar = statusBar;
  },
});
