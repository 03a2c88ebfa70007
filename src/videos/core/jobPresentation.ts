// How a job reads in the Video Jobs view and in messages: status groups, menu tokens, short texts. Pure.
import { formatAge } from '../../util/age';
import { displayStatus, isFinalRecord, isPollable, jobProfile, type VideoJobRecord } from './jobRecord';
import { checkResultUrl, urlExpiry } from './resultLinks';
import { isSuccessStatus } from './dialects/status';

/** A node of the Video Jobs tree: a job, or one of its result links. */
export type VideoJobNode = JobNode | ResultNode;
export type JobNode = { readonly kind: 'job'; readonly key: string };
export type ResultNode = { readonly kind: 'result'; readonly key: string; readonly index: number };

const QUEUED = new Set(['queued', 'pending', 'submitted', 'waiting']);
const RUNNING = new Set(['in_progress', 'in progress', 'running', 'processing', 'generating', 'started']);

export type StatusGroup = 'queued' | 'running' | 'completed' | 'failed' | 'other';

export function statusGroup(record: VideoJobRecord): StatusGroup {
  if (record.localState === 'submitting') return 'running';
  if (record.localState === 'not_found') return 'failed';
  if (record.localState === 'uncertain') return 'other';
  const status = record.status.trim().toLowerCase();
  if (isSuccessStatus(status)) return 'completed';
  if (isFinalRecord(record)) return 'failed';
  if (QUEUED.has(status)) return 'queued';
  if (RUNNING.has(status)) return 'running';
  return 'other';
}

/** Still going: being submitted or followed by polling. The view's badge counts these. */
export function isRunning(record: VideoJobRecord): boolean {
  return record.localState === 'submitting' || isPollable(record);
}

/**
 * A profile's jobs still running, found by the profile's id (never by its host: a profile whose URL changed still
 * owns the jobs it started on the old one, which are polled with its key there).
 */
export function runningJobsOf(records: readonly VideoJobRecord[], profileId: string): number {
  return records.filter((record) => jobProfile(record) === profileId && isRunning(record)).length;
}

/** The tokens menus match with `viewItem =~ /\btoken\b/`. */
export function jobContextTokens(record: VideoJobRecord): string[] {
  const tokens: string[] = [];
  if (record.id) tokens.push('job');
  if (record.resultUrls.length > 0 && checkResultUrl(record.resultUrls[0]).ok) tokens.push('previewable', 'openable', 'downloadable');
  if (statusGroup(record) === 'failed') tokens.push('failed');
  if (record.localState === 'uncertain') tokens.push('uncertain');
  if (isPollable(record)) tokens.push('refreshable');
  if (record.localState === 'uncertain' || isFinalRecord(record)) tokens.push('resubmittable');
  tokens.push('removable');
  return tokens;
}

export function resultContextTokens(url: string): string[] {
  return checkResultUrl(url).ok ? ['result', 'previewable', 'openable', 'downloadable'] : ['result'];
}

/** The prompt on one line, at most `max` characters. */
export function shortPrompt(prompt: string, max = 60): string {
  const line = prompt.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line || '(no prompt)';
}

/** The prompt in quotes, for messages. */
export function quoted(record: VideoJobRecord, max = 50): string {
  return `“${shortPrompt(record.prompt, max)}”`;
}


export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return minutes % 60 === 0 ? `${minutes / 60} h` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function statusText(record: VideoJobRecord): string {
  const text = displayStatus(record).replace(/_/g, ' ');
  // A running job's progress where its dialect reports it: "in progress · 40%".
  return record.progress !== undefined && isPollable(record) ? `${text} · ${Math.round(record.progress)}%` : text;
}

/** "status · age · resolution · duration". */
export function jobDescription(record: VideoJobRecord, now: number): string {
  const parts = [statusText(record), formatAge(now - record.createdAt)];
  if (record.parameters.resolution) parts.push(record.parameters.resolution);
  if (record.parameters.duration !== undefined) parts.push(`${record.parameters.duration} s`);
  return parts.join(' · ');
}

/** "link expires in 59 min", "link expired 2 h ago", or undefined for a link that does not say. */
export function expiryText(url: string, now: number): string | undefined {
  const expires = urlExpiry(url);
  if (expires === undefined) return undefined;
  return expires <= now ? `link expired ${formatAge(now - expires)}` : `link expires in ${formatDuration(expires - now)}`;
}

/** A sentence for messages about a result link's expiry ('' when the link does not say), with a leading space. */
export function expiryNote(url: string, now: number): string {
  const expires = urlExpiry(url);
  if (expires === undefined) return '';
  if (expires <= now) return ` The result link expired ${formatAge(now - expires)}.`;
  return ` The result link stops working at ${new Date(expires).toLocaleString()} (in ${formatDuration(expires - now)}); the saved file stays.`;
}

/** scheme://host/path of a link, without its (signed) query. */
export function linkWithoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url.slice(0, 80);
  }
}

/** Characters that would end or bend a Markdown image link; an encoded file URI (vscode's Uri.toString) has none. */
const LINK_BREAKERS = /[\s()<>[\]"'\\`]/;

/**
 * The tooltip's picture of a job: its kept thumbnail, by the file URI of our own kept file. Anything but a plain
 * encoded file: URI gives nothing, so no other scheme (or a link bent by its characters) reaches the hover.
 */
export function thumbnailMarkdown(fileUri: string): string | undefined {
  if (!fileUri.startsWith('file:///') || fileUri.length > 4096 || LINK_BREAKERS.test(fileUri)) return undefined;
  return `![Thumbnail of the video](${fileUri})\n\n`;
}
