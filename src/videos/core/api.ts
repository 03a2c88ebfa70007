// The video feature from the outside: what the chat, the @gateway participant, the gateway tools and Delete Profile
// may ask of it (the Video Jobs store's own jobs, polled by its one poller), and the ids of its commands other
// folders name. The video feature's definition (vscode/feature.ts) builds the object that implements VideoApi at
// activation; getting it loads nothing more. Types and constants only.
import type { Disposable } from '../../util/events';
import type { AllowedParameters, DialectDecision } from './dialects/types';

export type { AllowedParameters, DialectDecision } from './dialects/types';

/** What a submission may ask beyond the prompt; a value outside what the gateway allows is refused before sending. */
export interface VideoAskParameters {
  model?: string;
  duration?: number;
  resolution?: string;
  aspectRatio?: string;
  /** The video's first frame (image to video): a file, or image bytes a chat attached. */
  firstFrame?: FirstFrame;
}

/** A video job as the outside sees it. */
export interface VideoJob {
  key: string;
  model: string;
  state: 'pending' | 'complete' | 'failed';
  /** The job's status in words, or why it failed. */
  detail: string;
  /** The gateway's link to the finished video. */
  url?: string;
  /** The local copy kept before the link expires (in the global storage folder), once there is one. */
  keptFile?: string;
  /** Its type (by the kept file's extension). */
  keptContentType?: string;
}

/**
 * A first frame (image to video): an image file (`path`, absolute or relative to the first workspace folder; one
 * outside the workspace is read only after the user's yes), or image bytes a chat attached.
 */
export type FirstFrame = { path: string } | { data: Uint8Array };

export interface VideoApi {
  /** The folder the kept copies of finished videos are in: a webview playing them may load from it. */
  readonly keptFolder: string;
  /**
   * Submits a job; `profile` (by id or name) is the one to submit under, the active one without; `surface` 'tool' when
   * a language model tool asks (the ledger's surface; 'video' otherwise). Errors are worded for the user.
   */
  submit(ask: { prompt: string } & VideoAskParameters, call?: { profile?: string; surface?: 'tool' }): Promise<VideoJob>;
  /** What the gateway allows for `model` under a profile (the active one without); undefined when it lists nothing. Never rejects. (Optional: a port without it checks nothing.) */
  allowedParameters?(model: string, profile?: string): Promise<AllowedParameters | undefined>;
  job(key: string): VideoJob | undefined;
  /** Fires with the keys of jobs that changed (and of those whose result was kept or evicted). */
  onDidChange(listener: (keys: readonly string[]) => void): Disposable;
  /** Shows the job in the Video Jobs view. */
  reveal(key: string): Promise<void>;
  /**
   * A profile's jobs still running, by its id, on any origin: a profile with such jobs is not deleted (its key checks
   * them). One being submitted counts: its answer is on the way, and it is then polled with that key.
   */
  runningJobs(profileId: string): number;
  /**
   * The video dialect a profile (by id or name; the active one without) speaks, and why: its setting, or what the
   * gateway says about itself (`auto`, asked on this first need and kept per profile).
   */
  dialect(profile?: string): Promise<DialectDecision>;
  /** Settles once the jobs saved before activation are read: until then none looks pending. */
  jobsReady(): Promise<void>;
  onDidChangeJobs(listener: () => void): Disposable;
}

/**
 * The video commands other folders name (the @gateway participant's buttons), each id written once; the video
 * command table (vscode/commands.ts) declares them through these constants. Argument: a job's key.
 */
export const VIDEO_SHARED_COMMANDS = {
  preview: 'modelGateway.videos.preview',
} as const;
