// The video feature from the outside: what the chat, the @gateway participant, the gateway tools and Delete Profile
// may ask of it (the Video Jobs store's own jobs, polled by its one poller), and the ids of its commands other
// folders name. The video feature's definition (vscode/feature.ts) builds the object that implements VideoApi at
// activation; getting it loads nothing more. Types and constants only.
import type { Disposable } from '../../util/events';
import type { DialectName, DialectSetting } from '../../settings/profile';

/** The video dialect a profile speaks, and why (videos/core/dialects/detect.ts decides it). */
export interface DialectDecision {
  dialect: DialectName;
  /** The setting it came from (`auto` when detected). */
  setting: DialectSetting;
  /** Why, in one clause: "LiteLLM's /model/info answered (3 models)". */
  reason: string;
  /** What each probe asked said, in order ("host gw.example.com names no dialect", "/models: 4 models, …"). */
  evidence: string[];
  /** False when a probe could not be asked: the decision holds for now, and is made again on the next need. */
  settled: boolean;
}

/**
 * The video parameters the gateway allows for a model, where it lists them (OpenRouter's /videos/models, LiteLLM's
 * model info); a member is absent when nothing is listed for it, and then nothing is checked.
 */
export interface AllowedParameters {
  durations?: number[];
  /** Resolutions (`720p`) and sizes (`1280x720`) alike: the one answer the user gives goes to whichever fits. */
  resolutions?: string[];
  aspectRatios?: string[];
}

/** What a submission may ask beyond the prompt; a value outside what the gateway allows is refused before sending. */
export interface VideoAskParameters {
  model?: string;
  duration?: number;
  resolution?: string;
  aspectRatio?: string;
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
