// A dialect's job as the gateway client carries it: the dialect builds the request and reads the answer into the
// JobView, which is handed on as a VideoJob whose status is the extension's word for the state (so every reader of
// job statuses, status.ts's included, reads every dialect alike) and whose `gatewayStatus` is the word as sent.
// Pure.
import type { VideoJob, VideoWire } from '../../../gateway/types';
import { isFinalStatus } from './status';
import type { DialectContext, DialectName, JobState, JobView, VideoAsk, VideoDialect } from './types';

/** Members a dialect's VideoJob carries beside the spec's. */
export interface DialectJobExtras {
  dialect: DialectName;
  gatewayStatus: string;
  progress?: number;
  pollUrl?: string;
  expiresAt?: number;
  costUsd?: number;
  thumbnailUrl?: string;
  /** Result links that are fetched with the key (on the profile's origin only). */
  keyedUrls: string[];
}

const STATE_WORDS: Record<Exclude<JobState, 'unknown'>, string> = {
  queued: 'queued',
  running: 'in_progress',
  succeeded: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  expired: 'expired',
};

/** The status word the extension keeps: its own word for a known state; an unknown word as sent, but never read as final. */
export function statusOfView(view: Pick<JobView, 'state' | 'status'>): string {
  if (view.state !== 'unknown') return STATE_WORDS[view.state];
  const word = view.status || 'unknown';
  return isFinalStatus(word) ? `${word} (not known to this dialect)` : word;
}

export function videoJobOfView(dialect: DialectName, view: JobView): VideoJob & DialectJobExtras {
  const videos = view.results.filter((link) => link.variant === 'video');
  const thumbnail = view.results.find((link) => link.variant === 'thumbnail');
  return {
    id: view.id,
    status: statusOfView(view),
    data: videos.map((link) => ({ url: link.url })),
    ...(view.error && { error: { message: view.error.message, ...(view.error.code !== undefined && { code: view.error.code }) } }),
    dialect,
    gatewayStatus: view.status,
    keyedUrls: view.results.filter((link) => link.needsKey).map((link) => link.url),
    ...(view.progress !== undefined && { progress: view.progress }),
    ...(view.pollUrl !== undefined && { pollUrl: view.pollUrl }),
    ...(view.expiresAt !== undefined && { expiresAt: view.expiresAt }),
    ...(view.cost !== undefined && { costUsd: view.cost.usd }),
    ...(thumbnail && { thumbnailUrl: thumbnail.url }),
  };
}

export function submitWire(dialect: VideoDialect, ask: VideoAsk, ctx: DialectContext): VideoWire {
  const request = dialect.submit(ask, ctx);
  return { url: request.url, headers: request.headers, ...(request.body !== undefined && { body: request.body }), read: (body) => ({ ...videoJobOfView(dialect.name, dialect.readSubmitted(body, ctx)), ...(dialect.reportsCost && { costOnCompletion: true }) }) };
}

export function pollWire(dialect: VideoDialect, id: string, ctx: DialectContext, pollUrl?: string): VideoWire {
  const request = dialect.poll(id, ctx, pollUrl);
  return { url: request.url, headers: request.headers, read: (body) => videoJobOfView(dialect.name, dialect.readPolled(body, ctx)) };
}
