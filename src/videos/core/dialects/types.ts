// The one internal shape of a video job, whichever dialect the gateway speaks; each adapter in this folder turns
// its dialect's wire format into it and back. Pure.

import type { DialectName, DialectSetting } from '../../../settings/profile';

export type { DialectName, DialectSetting } from '../../../settings/profile';
export { DIALECT_NAMES, DIALECT_SETTINGS } from '../../../settings/profileCheck';

/** What the user asked for, before any dialect shaped it. */
export interface VideoAsk {
  model: string;
  prompt: string;
  durationSeconds?: number;
  /** `720p`, `1080P` or a size such as `1280x720`; each dialect puts it where it goes. */
  resolution?: string;
  /** `16:9`, `9:16`, … */
  aspectRatio?: string;
  /** The first frame: an http(s) URL, or a data URL where the gateway takes one. */
  firstFrame?: string;
}

/** One HTTP request in a dialect: an absolute URL on the profile's origin, the headers the dialect needs, a JSON body. */
export interface WireRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * The extension's states. `unknown` is a word the dialect does not define: neither done nor failed, so the job is
 * still polled and the word is shown as sent.
 */
export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'expired' | 'unknown';

export interface ResultLink {
  url: string;
  /** A content endpoint on the profile's origin that answers only with the key; a signed storage link does not. */
  needsKey: boolean;
  variant: 'video' | 'thumbnail';
}

export interface JobCost {
  usd: number;
  /** `reported`: the gateway's own figure for this job. */
  source: 'reported';
}

/** What one answer (to the submission or to a poll) says about the job. */
export interface JobView {
  id: string;
  /** The gateway's status word as sent (bounded); '' when it sent none. */
  status: string;
  state: JobState;
  /** 0–100, where the dialect reports it. */
  progress?: number;
  /** Where to poll, when the gateway named it (`polling_url`), already checked to be on the profile's origin. */
  pollUrl?: string;
  results: ResultLink[];
  /** When the result links stop working (epoch ms). */
  expiresAt?: number;
  /** The gateway's own words about a failure. */
  error?: { message: string; code?: string };
  cost?: JobCost;
}

export interface DialectContext {
  /** The profile's base URL, e.g. https://openrouter.ai/api/v1 (a trailing slash is fine). */
  baseUrl: string;
  /** The injected clock's now (epoch ms): DashScope's links expire 24 h after the job is seen finished. */
  now: number;
}

export interface VideoDialect {
  readonly name: DialectName;
  /** The finished job carries its own cost (so nothing is estimated when it is submitted). */
  readonly reportsCost?: boolean;
  /** The submission. Throws DialectError when the ask cannot be said in this dialect. */
  submit(ask: VideoAsk, ctx: DialectContext): WireRequest;
  /** Reads the answer to the submission. Throws DialectError when it names no usable job id. */
  readSubmitted(body: unknown, ctx: DialectContext): JobView;
  /** The poll of a job: its `polling_url` when the gateway gave one on the profile's origin, else the dialect's path. */
  poll(id: string, ctx: DialectContext, pollUrl?: string): WireRequest;
  /** Reads a poll's answer. Throws DialectError when it is not a job of this dialect. */
  readPolled(body: unknown, ctx: DialectContext): JobView;
  /** Cancels (or deletes) a job on the gateway, where the dialect has a way to. */
  remove?(id: string, ctx: DialectContext): WireRequest;
}

export class DialectError extends Error {
  override readonly name = 'DialectError';
}

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
