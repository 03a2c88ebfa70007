// UI adapter: the chat session store of a window, over the chat folder, with its problems told to the user. Its own
// file of the bundle (dist/chatStore.js), built when the Chats view first lists the chats or a panel needs it; the
// chat panels (chatCommands.ts) share it.
import * as vscode from 'vscode';
import type { Clock } from '../../util/clock';
import { NodeFileSystem } from '../../util/storeFileSystem';
import { ChatSessionStore, type StoreReporter } from '../core/sessionStore';
import { SHARED_COMMANDS } from '../../ui/core/commandIds';
import type { UserInterface } from '../../ui/vscode/userInterface';

/** `ui` is called only when there is something to tell the user (activation builds the store and shows nothing). */
export function createChatStore(folder: string, clock: Clock, log: vscode.LogOutputChannel, ui: () => UserInterface): ChatSessionStore {
  return new ChatSessionStore(new NodeFileSystem(folder), { clock, report: storeReporter(log, ui) });
}

function storeReporter(log: vscode.LogOutputChannel, ui: () => UserInterface): Partial<StoreReporter> {
  /** Session files already reported as unreadable (each is reported once). */
  const reportedCorrupt = new Set<string>();
  return {
    error: (error, what) => log.error(`Chat: ${what} failed: ${String(error)}`),
    notSaved: (failure) => {
      void ui().notify('error', failure.message, 'Open Logs').then((choice) => {
        if (choice) void vscode.commands.executeCommand(SHARED_COMMANDS.openLogs);
      });
    },
    repaired: (id, repaired, dropped) => log.warn(`Chat: chat ${id} had unreadable parts: ${repaired} message(s) repaired, ${dropped} left out; the rest is kept.`),
    corrupt: (file, movedTo, reason) => {
      log.warn(`Chat: ${file} could not be read (${reason}); it was moved aside as ${movedTo}.`);
      if (reportedCorrupt.has(file)) return;
      reportedCorrupt.add(file);
      void ui().notify('warning', `A saved chat could not be read (${reason}). It was kept as ${movedTo} in the chat folder, and the chat starts empty.`, 'Open Logs').then((choice) => {
        if (choice) void vscode.commands.executeCommand(SHARED_COMMANDS.openLogs);
      });
    },
  };
}
