// UI adapter: Edit Image…: from the Explorer (an image file), the Media view (a kept image), the palette (a file
// picked), or with an argument `{ path, prompt, mask?, model? }` (asks nothing). Asks for the prompt, shows
// cancellable progress, keeps the result in the Media history and opens it in the gallery; a workspace file's result
// is also written beside it as a new file. The original is never written. Resolves with the new entry, or undefined.
import * as vscode from 'vscode';
import { accessAdvice } from '../../ui/core/errorAdvice';
import type { UserInterface } from '../../ui/vscode/userInterface';
import { readPlace } from '../../ui/vscode/readPlace';
import { editAskOf, editImage, type EditAsk, type EditPlace } from '../core/imageEdit';
import { mediaFailureAdvice } from '../core/mediaAdvice';
import type { MediaEntry } from '../core/mediaEntry';
import type { MediaHistory } from '../core/mediaHistory';
import { MediaRequestError, promptProblem } from '../core/mediaRequest';
import { MEDIA_COMMANDS } from './commands';
import type { MediaCommandDeps } from './generateImageCommand';
import { askText } from './mediaInputsView';
import { nodeOf } from './mediaItemCommands';

const IMAGE_FILTERS = { Images: ['png', 'jpg', 'jpeg', 'webp', 'gif'] };

/** The workspace folders' real paths, the modal yes a file outside them needs, and the Media history's own files. */
export function editPlace(ui: UserInterface, history: Pick<MediaHistory, 'filesFolder'>): Promise<EditPlace & { firstFolder?: string }> {
  return readPlace(ui, history.filesFolder);
}

export class EditImageCommand {
  constructor(private readonly deps: MediaCommandDeps & { history: MediaHistory }) {}

  async run(argument?: unknown): Promise<MediaEntry | undefined> {
    let ask: EditAsk | undefined;
    try {
      ask = await this.askFor(argument);
    } catch (error) {
      void this.deps.ui.notify('error', `Edit Image: ${(error as MediaRequestError).message}`);
      return undefined;
    }
    return ask ? this.edit(ask) : undefined;
  }

  /** The request: whole from a `{ path, prompt }` argument; else the file (Explorer, Media view or picked) and the prompt asked. */
  private async askFor(argument: unknown): Promise<EditAsk | undefined> {
    if (isPlainObject(argument) && 'path' in argument) return editAskOf(argument);
    const path = await this.sourcePath(argument);
    if (path === undefined) return undefined;
    const access = await this.deps.core.connection.access();
    if (!access.ok) {
      this.deps.ui.advise(accessAdvice(access), 'warning');
      return undefined;
    }
    const prompt = await askText(this.deps.ui, `Edit Image: ${vscode.workspace.asRelativePath(path)}`, 'Describe the change.', 'Make the sky stormy; keep everything else', '', promptProblem);
    return prompt === undefined ? undefined : { path, prompt };
  }

  private async sourcePath(argument: unknown): Promise<string | undefined> {
    if (argument instanceof vscode.Uri) {
      if (argument.scheme !== 'file') throw new MediaRequestError(`${argument.toString(true)} is not a file on disk.`);
      return argument.fsPath;
    }
    const node = nodeOf(argument);
    if (node) {
      const file = this.deps.history.get(node.entry)?.files[node.index ?? 0];
      if (!file || !file.contentType.startsWith('image/')) throw new MediaRequestError('This item is no longer an image in the Media history.');
      return this.deps.history.filePath(file);
    }
    const picked = await this.deps.ui.openDialog({ title: 'Edit Image: choose the image', openLabel: 'Edit This Image', filters: IMAGE_FILTERS });
    return picked?.fsPath;
  }

  private async edit(ask: EditAsk): Promise<MediaEntry | undefined> {
    try {
      const place = await editPlace(this.deps.ui, this.deps.history);
      const outcome = await this.deps.ui.withProgress(`Editing ${vscode.workspace.asRelativePath(ask.path)}${ask.model ? ` with ${ask.model}` : ''}…`, (_report, signal) => editImage(this.deps.core, ask, place, { signal }), { cancellable: true });
      this.deps.panels.show(outcome.entry);
      void this.deps.reveal(outcome.entry.id);
      if (outcome.notes.length > 0) void this.deps.ui.notify('warning', `Not everything the gateway sent was kept. ${outcome.notes.join(' ')}`);
      if (outcome.written) void this.deps.ui.status(`Edited image saved as ${vscode.workspace.asRelativePath(outcome.written)} (the original is unchanged).`);
      return outcome.entry;
    } catch (error) {
      const advice = mediaFailureAdvice(error, { origin: this.deps.core.connection.origin, model: ask.model, what: 'image', retry: { title: 'Try Again', command: MEDIA_COMMANDS.editImage, args: [ask] } });
      if (advice.kind === 'aborted') this.deps.ui.status(advice.message || 'Image edit cancelled.');
      else this.deps.ui.advise(advice);
      return undefined;
    }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof vscode.Uri);
}
