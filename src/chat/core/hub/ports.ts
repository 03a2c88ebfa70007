// What the chat asks of the media and video features, as small ports the composition root hands it: the chat never
// imports src/media or src/videos. Each port's errors are already worded for the user (Error.message).
import type { MediaState } from '../../../chatProtocol/session';
import type { Disposable } from '../../../util/events';

export interface KeptMedia {
  entryId: string;
  fileName: string;
  contentType: string;
  /** The gateway's link to it, when the gateway sent one. */
  url?: string;
  model: string;
}

export interface KeptFile {
  /** The file on disk (in the Media history's files folder). */
  path: string;
  contentType: string;
}

/** Images and speech, kept in the Media history (so they also show in the Media view). */
export interface ChatMediaPort {
  /** The folder the kept files are in: the chat's webview may load from it. */
  readonly filesFolder: string;
  /** `profile`: the chat's own (its key and gateway), whichever profile the window uses. */
  /** `surface`: 'tool' when a language model tool asks (the ledger's surface; the chat's own otherwise). */
  generateImage(ask: { prompt: string; model?: string; profile?: string; surface?: 'tool' }, signal: AbortSignal): Promise<KeptMedia>;
  synthesizeSpeech(ask: { text: string; model?: string; profile?: string; surface?: 'tool' }, signal: AbortSignal): Promise<KeptMedia>;
  /** The kept file, or undefined when its entry was removed or pruned. */
  keptFile(entryId: string, fileName: string): KeptFile | undefined;
  /** Save to Workspace, with the media feature's rules (inside the workspace, allowlisted extension, never overwrite without asking). */
  save(entryId: string, fileName: string): Promise<void>;
}

export interface ChatVideoJob {
  key: string;
  model: string;
  state: MediaState;
  /** The job's status in words, or why it failed. */
  detail: string;
  /** The gateway's link to the finished video. */
  url?: string;
  /** The local copy kept before the link expires (in the global storage folder), once there is one. */
  keptFile?: string;
  /** Its type (by the kept file's extension). */
  keptContentType?: string;
}

/** Video jobs: the same jobs, store and poller as the Video Jobs view. */
export interface ChatVideoPort {
  /** The folder the kept copies of finished videos are in: the chat's webview may load from it. */
  readonly keptFolder?: string;
  submit(ask: { prompt: string; model?: string; profile?: string; surface?: 'tool' }): Promise<ChatVideoJob>;
  job(key: string): ChatVideoJob | undefined;
  /** Fires with the keys of jobs that changed. */
  onDidChange(listener: (keys: readonly string[]) => void): Disposable;
  /** Shows the job in the Video Jobs view. */
  reveal(key: string): Promise<void>;
}

export interface ChatMediaPorts {
  media: ChatMediaPort;
  videos: ChatVideoPort;
}
