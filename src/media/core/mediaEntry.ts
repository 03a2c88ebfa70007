// One entry of the Media history: what was asked, of which gateway and model, and the files kept for it. Entries are
// written once and never changed, so several windows can add and remove them without a lock. Pure, browser-safe.
import { isMediaType, type MediaType } from '../../gateway/mediaTypes';
import { isRecord } from '../../util/records';

export type MediaKind = 'image' | 'speech';

export interface MediaFileRef {
  /** A plain file name in the history's files folder, chosen by the extension: `<entry id>-<n>.<ext>`. */
  name: string;
  contentType: MediaType;
  bytes: number;
  /** The gateway's link for this file, when it sent one (it may expire; the file stays). */
  sourceUrl?: string;
  /** The prompt as the model rewrote it, when the gateway said. */
  revisedPrompt?: string;
  /** The text the model sent with the image (images made through chat). */
  caption?: string;
}

export interface MediaEntry {
  id: string;
  kind: MediaKind;
  /** Epoch ms. */
  createdAt: number;
  origin: string;
  /** The profile it was made under (absent: Default). */
  profile?: string;
  model: string;
  /** The image prompt, or the text that was spoken. */
  prompt: string;
  /** Images: the size asked for. */
  size?: string;
  /** Speech: the voice. */
  voice?: string;
  files: MediaFileRef[];
  /** What the gateway sent that was not kept (one sentence each). */
  notes: string[];
}

export const LIMITS = { prompt: 8000, text: 200, url: 16 * 1024, files: 10, notes: 10 } as const;

export function isEntryId(value: unknown): value is string {
  return typeof value === 'string' && /^m[a-z0-9]{6,40}$/.test(value);
}

export function isFileName(value: unknown): value is string {
  return typeof value === 'string' && /^m[a-z0-9]{6,40}-\d{1,2}\.[a-z0-9]{2,5}$/.test(value);
}

function text(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max;
}

function optionalText(value: unknown, max: number): boolean {
  return value === undefined || text(value, max);
}

function isFileRef(value: unknown): value is MediaFileRef {
  return (
    isRecord(value) &&
    isFileName(value.name) &&
    isMediaType(value.contentType) &&
    typeof value.bytes === 'number' &&
    Number.isInteger(value.bytes) &&
    value.bytes >= 0 &&
    optionalText(value.sourceUrl, LIMITS.url) &&
    optionalText(value.revisedPrompt, LIMITS.prompt) &&
    optionalText(value.caption, LIMITS.prompt)
  );
}

/** A stored entry as this version writes it; anything else (a damaged or foreign file) is not shown. */
export function isMediaEntry(value: unknown): value is MediaEntry {
  if (!isRecord(value)) return false;
  return (
    isEntryId(value.id) &&
    (value.kind === 'image' || value.kind === 'speech') &&
    typeof value.createdAt === 'number' &&
    Number.isFinite(value.createdAt) &&
    text(value.origin, LIMITS.url) &&
    optionalText(value.profile, 64) &&
    text(value.model, LIMITS.text) &&
    text(value.prompt, LIMITS.prompt) &&
    optionalText(value.size, LIMITS.text) &&
    optionalText(value.voice, LIMITS.text) &&
    Array.isArray(value.files) &&
    value.files.length >= 1 &&
    value.files.length <= LIMITS.files &&
    value.files.every(isFileRef) &&
    value.files.every((f: MediaFileRef) => f.name.startsWith(`${value.id}-`)) &&
    Array.isArray(value.notes) &&
    value.notes.length <= LIMITS.notes &&
    value.notes.every((n) => text(n, 1000))
  );
}

/** The prompt on one line, at most `max` characters. */
export function shortText(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat || '(empty)';
}

/** "2 images · 1024x1024 · model-image-1.0", "alloy · model-speech-1.0". */
export function entrySummary(entry: MediaEntry): string {
  const parts: string[] = [];
  if (entry.kind === 'image') {
    parts.push(entry.files.length === 1 ? '1 image' : `${entry.files.length} images`);
    if (entry.size) parts.push(entry.size);
  } else if (entry.voice) parts.push(entry.voice);
  parts.push(entry.model);
  return parts.join(' · ');
}
