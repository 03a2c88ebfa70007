// What the poll scheduler is given and what it reports: the job it polls, how, and the outcome of each poll.
import type { Clock } from '../../util/clock';
import type { VideoJob } from '../../gateway/types';
import type { ErrorFields } from '../../gateway/errors';
import type { JobProfile, TimingOptions } from './pollTiming';

export interface PollTarget {
  /** The caller's stable key for the job. */
  key: string;
  origin: string;
  /** The gateway's job id. */
  id: string;
}

/** Polls one job; `onRetryAfter` takes a Retry-After that came with a successful answer. */
export type PollFunction = (target: PollTarget, signal: AbortSignal, onRetryAfter: (ms: number) => void) => Promise<VideoJob>;

export interface PollSchedulerOptions extends TimingOptions {
  clock: Clock;
  poll: PollFunction;
  maxInFlight?: number;
  /** Smallest gap between the starts of two polls, across all origins: bounds the request rate. */
  minGapMs?: number;
}

export type PollOutcome =
  | { kind: 'status'; job: VideoJob; final: boolean }
  | { kind: 'not_found'; error: ErrorFields }
  | { kind: 'auth'; error: ErrorFields }
  | { kind: 'rate_limited'; error: ErrorFields; pausedUntil: number }
  | { kind: 'transient'; error: ErrorFields };

export interface PollEvent {
  target: PollTarget;
  outcome: PollOutcome;
  polledAt: number;
  pollCount: number;
  /** When the job is polled next; undefined once it is no longer tracked. */
  nextPollAt: number | undefined;
}

export interface PauseChange {
  origin: string;
  /** Undefined when polling of the origin resumes. */
  pausedUntil: number | undefined;
}

export interface AuthRequired {
  origin: string;
  status: number | undefined;
  error: ErrorFields;
}

export interface TrackOptions {
  nextPollAt?: number;
  lastPolledAt?: number;
  pollCount?: number;
  job?: JobProfile;
}
