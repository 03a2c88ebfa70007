// The media feature's service, built at activation by its feature definition: it owns the Media history and is
// what the outside reaches (core/api.ts's MediaApi). The history is read at once; what asks the gateway and Save to
// Workspace load on first use (the media commands' file), so getting the service loads nothing more. Pure.
import type { Disposable } from '../../util/events';
import type { MediaApi } from './api';
import type { MediaCallNames } from './mediaCalls';
import { MediaHistory, type MediaHistoryOptions } from './mediaHistory';

/** What loads on first use. */
export interface MediaServiceParts {
  calls(): Pick<MediaApi, MediaCallNames>;
  /** Save to Workspace (the media feature's command, with its rules). */
  save(entryId: string, index: number): Promise<unknown>;
}

export class MediaService implements MediaApi, Disposable {
  readonly history: MediaHistory;

  constructor(
    history: MediaHistoryOptions,
    private readonly parts: MediaServiceParts,
  ) {
    this.history = new MediaHistory(history);
    this.history.watch();
  }

  get filesFolder(): string {
    return this.history.filesFolder;
  }

  generateImage: MediaApi['generateImage'] = (ask, call) => this.parts.calls().generateImage(ask, call);

  synthesizeSpeech: MediaApi['synthesizeSpeech'] = (ask, call) => this.parts.calls().synthesizeSpeech(ask, call);

  editImage: MediaApi['editImage'] = (ask, call) => this.parts.calls().editImage(ask, call);
  transcribe: MediaApi['transcribe'] = (ask, call) => this.parts.calls().transcribe(ask, call);

  keptFile(entryId: string, fileName: string): ReturnType<MediaApi['keptFile']> {
    const file = this.history.get(entryId)?.files.find((f) => f.name === fileName);
    return file && { path: this.history.filePath(file), contentType: file.contentType };
  }

  async save(entryId: string, fileName: string): Promise<void> {
    const index = this.history.get(entryId)?.files.findIndex((f) => f.name === fileName) ?? -1;
    if (index < 0) throw new Error('This file is no longer in the Media history: regenerate it to save it.');
    await this.parts.save(entryId, index);
  }

  dispose(): void {
    this.history.dispose();
  }
}
