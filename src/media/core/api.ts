// The media feature from the outside: what the chat, the @gateway participant and the gateway tools may ask of it
// (images and speech, kept in the Media history so they also show in the Media view; transcripts, which are text),
// and the ids of its commands other folders name. The media feature's definition (vscode/feature.ts) builds the object that implements MediaApi
// at activation; getting it loads nothing more. Types and constants only.
import type { RequestSurface } from '../../gateway/types';
import type { AudioType } from '../../gateway/mediaTypes';

/** One call: who asks (the usage ledger's surface), under which profile (the active one without), and its cancel. */
export interface MediaCall {
  signal: AbortSignal;
  surface: RequestSurface;
  /** The profile to ask under, by id or name (a chat's own, whichever profile the window uses); the active one without. */
  profile?: string;
}

/** A result kept in the Media history. */
export interface KeptMedia {
  entryId: string;
  fileName: string;
  contentType: string;
  /** The gateway's link to it, when the gateway sent one. */
  url?: string;
  model: string;
}

export interface EditImageAsk {
  prompt: string;
  model?: string;
  path?: string;
  /** A PNG mask file (path) of the image's size. */
  mask?: string;
  image?: { data: Uint8Array; mimeType: string };
}

export interface KeptFile {
  /** The file on disk (in the Media history's files folder). */
  path: string;
  contentType: string;
}

/** A file to transcribe: a path on disk (read bounded, links resolved), and how the transcript should come. */
export interface TranscribeAsk {
  path: string;
  model?: string;
  /** Plain text (the default), or subtitles that keep their timings. */
  format?: 'text' | 'srt' | 'vtt';
  /** ISO-639 code of the spoken language, when known. */
  language?: string;
}

/** A transcript: text, not kept in the Media history. */
export interface Transcript {
  text: string;
  model: string;
  /** The text is the SRT or VTT asked for (with its timings), not plain text sent in its place. */
  timed: boolean;
  /** Cut at the longest transcript kept. */
  clipped?: boolean;
}

/** Images, speech and transcription. Errors are worded for the user (Error.message). */
export interface MediaApi {
  /** The folder the kept files are in: a webview showing them may load from it. */
  readonly filesFolder: string;
  generateImage(ask: { prompt: string; model?: string }, call: MediaCall): Promise<KeptMedia>;
  /** `onAudio` gets each piece of the audio as it arrives, from the first that sniffs as audio (a player that streams). */
  synthesizeSpeech(ask: { text: string; model?: string }, call: MediaCall & { onAudio?: (chunk: Uint8Array, contentType: AudioType) => void }): Promise<KeptMedia>;
  /**
   * Edits an image: a file (`path`, absolute or relative to the first workspace folder; one outside the workspace is
   * read only after the user's yes) or image bytes already attached (`image`, a chat's). The result is kept; for a
   * workspace file it is also written beside it as a new file (`written`). The original is never written.
   */
  editImage(ask: EditImageAsk, call: MediaCall): Promise<KeptMedia & { written?: string }>;
  /** Transcribes an audio or video file under the call's profile (its dialect, its model list); `onDelta` sees a streamed transcript arrive. */
  transcribe(ask: TranscribeAsk, call: MediaCall & { onDelta?: (text: string) => void }): Promise<Transcript>;
  /** The kept file, or undefined when its entry was removed or pruned. */
  keptFile(entryId: string, fileName: string): KeptFile | undefined;
  /** Save to Workspace, with the media feature's rules (inside the workspace, allowlisted extension, never overwrite without asking). */
  save(entryId: string, fileName: string): Promise<void>;
}

/**
 * The media commands other folders name (the @gateway participant's buttons), each id written once; the media
 * command table (vscode/commands.ts) declares them through these constants. Arguments: `{ entry, index? }`.
 */
export const MEDIA_SHARED_COMMANDS = {
  show: 'modelGateway.media.show',
  save: 'modelGateway.media.save',
} as const;
