// UI adapter: the actions on a kept image or clip, from the Media view, the gallery and the player: Show, Save to
// Workspace, Copy, Open, Remove from History, Clear Media History. Every action takes `{ entry, index? }` (a tree
// node, or a page link's argument), checks it, and looks the entry up in the history, so a stale node or a forged
// link can only name something that exists.
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { MediaDefaults } from '../../settings/settings';
import type { UserInterface } from '../../ui/vscode/userInterface';
import { formatBytes } from '../../util/bytes';
import { isEntryId, shortText, type MediaEntry, type MediaFileRef } from '../core/mediaEntry';
import type { MediaHistory } from '../core/mediaHistory';
import type { MediaNode } from './mediaHistoryView';
import type { MediaPanels } from './mediaPanel';
import { folderInside, mediaFileName, replaceFile, SaveError, writeNewFile, writeUnderFreeName } from '../core/workspaceSave';

export interface MediaItemDeps {
  history: MediaHistory;
  panels: Pick<MediaPanels, 'show'>;
  settings(): MediaDefaults;
  selection(): readonly MediaNode[];
  ui: UserInterface;
}

interface Target {
  entry: MediaEntry;
  index: number;
  file: MediaFileRef;
}

/** `{ entry, index? }` as sent by a tree node or a page link, or undefined. */
export function nodeOf(argument: unknown): MediaNode | undefined {
  if (typeof argument !== 'object' || argument === null) return undefined;
  const { entry, index } = argument as Record<string, unknown>;
  if (!isEntryId(entry)) return undefined;
  if (index !== undefined && !(typeof index === 'number' && Number.isInteger(index) && index >= 0 && index < 100)) return undefined;
  return index === undefined ? { entry } : { entry, index };
}

export class MediaItemCommands {
  constructor(private readonly deps: MediaItemDeps) {}

  handlers(): Record<'show' | 'save' | 'copy' | 'open' | 'remove' | 'clear', (argument?: unknown) => unknown> {
    return {
      show: (argument) => this.show(argument),
      save: (argument) => this.save(argument),
      copy: (argument) => this.copy(argument),
      open: (argument) => this.open(argument),
      remove: (argument) => this.remove(argument),
      clear: () => this.clear(),
    };
  }

  /** Opens the entry's gallery or player. */
  show(argument?: unknown): boolean {
    const target = this.target(argument);
    if (target) this.deps.panels.show(target.entry, { beside: target.entry.kind === 'speech' });
    return target !== undefined;
  }

  /**
   * Writes the file into the workspace folder (the one picked when there are several), in `media.saveFolder`, under
   * a name the extension chooses. An existing file of that name is kept unless the user says Replace. Resolves with
   * the path written, or undefined.
   */
  async save(argument?: unknown): Promise<string | undefined> {
    const target = this.target(argument);
    if (!target) return undefined;
    const data = await this.keptBytes(target);
    if (!data) return undefined;
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 0) {
      this.deps.ui.advise({ kind: 'other', message: 'Open a folder first: generated media is saved into the workspace.', actions: [{ title: 'Open Folder…', command: 'vscode.openFolder' }] }, 'warning');
      return undefined;
    }
    const folder = folders.length > 1 ? await this.deps.ui.pickFolder('Save into which folder?') : folders[0];
    if (!folder) return undefined;
    if (folder.uri.scheme !== 'file') {
      void this.deps.ui.notify('error', `Save to Workspace needs a folder on disk; ${folder.name} is not one (${folder.uri.scheme}:).`);
      return undefined;
    }
    const name = mediaFileName(target.entry, target.index);
    try {
      const dir = await folderInside(folder.uri.fsPath, this.deps.settings().saveFolder);
      let written = await writeNewFile(dir, name, data);
      if (written === 'exists') {
        const keepBoth = 'Keep Both';
        const replace = 'Replace';
        const choice = await this.deps.ui.ask('warning', `${name} already exists in ${vscode.workspace.asRelativePath(vscode.Uri.file(dir), true) || folder.name}.`, 'Keep Both saves this one under a new name.', keepBoth, replace);
        if (choice === keepBoth) written = await writeUnderFreeName(dir, name, data);
        else if (choice === replace) written = await replaceFile(dir, name, data);
        else return undefined;
      }
      const uri = vscode.Uri.file(written);
      void this.deps.ui.notify('info', `Saved ${vscode.workspace.asRelativePath(uri, folders.length > 1)} (${formatBytes(data.length)}).`, 'Open', 'Reveal in Explorer').then((choice) => {
        if (choice === 'Open') void this.deps.ui.showFile(uri, 'open');
        if (choice === 'Reveal in Explorer') void this.deps.ui.showFile(uri, 'reveal');
      });
      return written;
    } catch (error) {
      const message = error instanceof SaveError ? error.message : `Could not save ${name}: ${(error as Error).message}`;
      void this.deps.ui.notify('error', message);
      return undefined;
    }
  }

  /** Copies the gateway's link of an image when it sent one, else the path of the kept file. Resolves with what was copied. */
  async copy(argument?: unknown): Promise<string | undefined> {
    const target = this.target(argument);
    if (!target) return undefined;
    const text = target.file.sourceUrl ?? this.deps.history.filePath(target.file);
    await this.deps.ui.copy(text);
    this.deps.ui.status(target.file.sourceUrl ? 'Copied the image’s link (it may expire; the kept file stays).' : 'Copied the path of the kept file.');
    return text;
  }

  /** Opens the kept file in VS Code (its image or media preview). */
  async open(argument?: unknown): Promise<boolean> {
    const target = this.target(argument);
    if (!target || !(await this.keptBytes(target))) return false;
    await this.deps.ui.showFile(vscode.Uri.file(this.deps.history.filePath(target.file)), 'open');
    return true;
  }

  async remove(argument?: unknown): Promise<boolean> {
    const target = this.target(argument);
    return target ? this.deps.history.remove(target.entry.id) : false;
  }

  /** Removes every entry and its files, after asking. Resolves with how many were removed. */
  async clear(): Promise<number> {
    const count = this.deps.history.entries().length;
    if (count === 0) {
      this.deps.ui.status('The media history is empty.');
      return 0;
    }
    const clear = 'Clear';
    const choice = await this.deps.ui.ask('warning', `Remove all ${count} entries from the media history?`, 'Their kept files are deleted too. Files saved into a workspace stay.', clear);
    return choice === clear ? this.deps.history.clear() : 0;
  }

  /** The entry and file an action is about: its argument, else the Media view's selection. */
  private target(argument: unknown): Target | undefined {
    const node = argument === undefined ? this.deps.selection()[0] : nodeOf(argument);
    if (!node) {
      void this.deps.ui.notify('info', argument === undefined ? 'Select an image or clip in the Media view first.' : 'That is not an item of the media history.');
      return undefined;
    }
    const entry = this.deps.history.get(node.entry);
    const index = node.index ?? 0;
    const file = entry?.files[index];
    if (!entry || !file) {
      void this.deps.ui.notify('info', 'That item is no longer in the media history.');
      return undefined;
    }
    return { entry, index, file };
  }

  /** The kept file's bytes (at most the size limit they were accepted under), or undefined after saying it is gone. */
  private async keptBytes(target: Target): Promise<Uint8Array | undefined> {
    try {
      return await readFile(this.deps.history.filePath(target.file));
    } catch {
      void this.deps.ui.notify('error', `The file of “${shortText(target.entry.prompt, 40)}” is no longer in the media history folder.`);
      return undefined;
    }
  }
}
