// UI adapter: where a file the user names is read from: the workspace folders' real paths, and the modal yes a file
// outside them needs (the chat's Add Context asks the same). The place util/consentedRead.ts reads with.
import * as vscode from 'vscode';
import { realFolders } from '../../util/fileConsent';
import type { ReadPlace } from '../../util/consentedRead';
import type { UserInterface } from './userInterface';

const SEND = 'Send It';

/** `ownFolder`: files the extension itself keeps, read without asking. `firstFolder`: where a relative path starts. */
export async function readPlace(ui: Pick<UserInterface, 'ask'>, ownFolder?: string): Promise<ReadPlace & { firstFolder?: string }> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const confirm = async (question: string) => {
    try {
      return (await ui.ask('warning', question, undefined, SEND)) === SEND;
    } catch {
      return false;
    }
  };
  const own = ownFolder === undefined ? undefined : (await realFolders([ownFolder]))[0];
  return { roots: await realFolders(folders), confirm, ...(own !== undefined && { ownFolder: own }), ...(folders[0] !== undefined && { firstFolder: folders[0] }) };
}
