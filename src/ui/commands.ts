// UI adapter: registers the commands the composition root hands it.
import * as vscode from 'vscode';

export type CommandHandlers = Record<string, (...args: any[]) => unknown>;

/**
 * Registers a feature's handlers; each feature lists its commands, only the composition root registers them.
 * Each run is written to the log at debug level (how the end-to-end suite knows every command was run).
 */
export function registerCommands(context: vscode.ExtensionContext, handlers: CommandHandlers, log?: Pick<vscode.LogOutputChannel, 'debug'>): void {
  for (const [id, handler] of Object.entries(handlers)) {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, (...args: unknown[]) => {
        log?.debug(`Command ${id}`);
        return handler(...args);
      }),
    );
  }
}
