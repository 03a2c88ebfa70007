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

/**
 * Handlers for `ids` whose implementation loads on the first run of any of them (`load` requires a file the build
 * keeps out of the activation bundle). The ids are registered at activation, so the commands exist from the start.
 */
export function lazyHandlers(ids: readonly string[], load: () => CommandHandlers): CommandHandlers {
  let loaded: CommandHandlers | undefined;
  const handler = (id: string) => {
    loaded ??= load();
    const run = loaded[id];
    if (!run) throw new Error(`Command ${id} has no implementation (the loaded handlers are ${Object.keys(loaded).join(', ')}).`);
    return run;
  };
  return Object.fromEntries(ids.map((id) => [id, (...args: unknown[]) => handler(id)(...args)]));
}

