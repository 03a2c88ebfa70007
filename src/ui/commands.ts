// UI adapter: registers command handlers, each disposed with the extension.
import * as vscode from 'vscode';

export type CommandHandlers = Record<string, (...args: any[]) => unknown>;

/** Registers a feature's handlers; each feature lists its commands, only the composition root registers them. */
export function registerCommands(context: vscode.ExtensionContext, handlers: CommandHandlers): void {
  for (const [id, handler] of Object.entries(handlers)) context.subscriptions.push(vscode.commands.registerCommand(id, handler));
}
