// UI adapter: registers the commands each feature definition declares.
import * as vscode from 'vscode';
import { guardCommand, type CommandFailureReport } from '../core/commandGuard';

export type CommandHandler = (...args: any[]) => unknown;
/** Handlers by command id, as VS Code registers them. */
export type CommandHandlers = Record<string, CommandHandler>;
/** A feature's commands: a name for the code → the command id package.json declares. */
export type CommandIds = Readonly<Record<string, `modelGateway.${string}`>>;
/** One handler for each of a table's commands, by name (the compiler checks none is missing or extra). */
export type HandlersFor<Ids extends CommandIds> = { [Name in keyof Ids]: CommandHandler };

export interface RegisterOptions {
  log?: Pick<vscode.LogOutputChannel, 'debug'>;
  /** Settles once this window's profile is known; a command run at startup waits for it. */
  ready?: () => Promise<void>;
  /** Where a failure that escapes a handler is told (the user seam and the log); see ui/core/commandGuard.ts. */
  failures: () => CommandFailureReport;
}

/**
 * Registers handlers by id, each inside the one catch of every command (a failure is worded once and shown with its
 * actions; a cancellation is silent). Each run is written to the log at debug level (how the end-to-end suite knows
 * every command was run).
 */
export function registerCommands(context: vscode.ExtensionContext, handlers: CommandHandlers, { log, ready, failures }: RegisterOptions): void {
  for (const [id, handler] of Object.entries(handlers)) {
    const guarded = guardCommand(id, async (...args: unknown[]) => {
      if (ready) await ready();
      return handler(...args);
    }, failures);
    context.subscriptions.push(
      vscode.commands.registerCommand(id, (...args: unknown[]) => {
        log?.debug(`Command ${id}`);
        return guarded(...args);
      }),
    );
  }
}

/** A table's handlers keyed by command id. */
export function commandHandlers<Ids extends CommandIds>(ids: Ids, handlers: HandlersFor<Ids>): CommandHandlers {
  return Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, handlers[name as keyof Ids]]));
}

/**
 * Handlers for every command of `ids` whose implementation loads on the first run of any of them (`load` requires
 * a file the build keeps out of the activation bundle). The ids are registered at activation, so the commands
 * exist from the start.
 */
export function lazyCommands<Ids extends CommandIds>(ids: Ids, load: () => HandlersFor<Ids>): CommandHandlers {
  let loaded: HandlersFor<Ids> | undefined;
  return Object.fromEntries(
    Object.entries(ids).map(([name, id]) => [
      id,
      (...args: unknown[]) => {
        loaded ??= load();
        const run = loaded[name as keyof Ids];
        if (!run) throw new Error(`Command ${id} has no implementation (the loaded handlers are ${Object.keys(loaded).join(', ')}).`);
        return run(...args);
      },
    ]),
  );
}
