// Context attached to a chat message: workspace text (a file, a selection, an editor, a file's problems) and
// images. Saved with the user turn, so regenerate and edit-and-resend send exactly what was sent the first time.
// Pure and browser-safe: the webview shows the chips and counts the tokens with the same functions.
import { cleanArray, cleanCount, cleanText, isId, isRecord, type Fields } from './validate';

/** `lines`: lines N–M of a file the user picked (Lines of a File…). */
export type TextSource = 'file' | 'selection' | 'lines' | 'problems';
export const TEXT_SOURCES: readonly TextSource[] = ['file', 'selection', 'lines', 'problems'];

export interface TextAttachment {
  kind: 'text';
  id: string;
  source: TextSource;
  /** Workspace-relative path, or the untitled editor's name. */
  path: string;
  /** VS Code language id; '' for plain text. */
  language: string;
  /** 1-based and inclusive: the lines `text` holds. */
  startLine: number;
  endLine: number;
  /** Lines in what was attached before any trim, so a trimmed attachment says so. */
  totalLines: number;
  text: string;
}

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

export interface ImageAttachment {
  kind: 'image';
  id: string;
  name: string;
  mimeType: ImageType;
  /** Base64, no data: prefix. */
  data: string;
}

/**
 * An audio file waiting for /transcribe, which puts its transcript into the context instead. It never goes to a chat
 * model and is never saved with a turn (cleanAttachment drops it); `path` is where the user agreed it is read from.
 */
export interface AudioAttachment {
  kind: 'audio';
  id: string;
  name: string;
  /** The real path on disk (links resolved when it was attached). */
  path: string;
  bytes: number;
}

export type Attachment = TextAttachment | ImageAttachment | AudioAttachment;
/** The kinds of attachment this version knows; another kind is a newer version's, kept as it is (sessionUnknown.ts). */
export const ATTACHMENT_KINDS: readonly string[] = ['text', 'image'];

/** What the webview is shown of an attachment: never its content. */
export interface AttachmentChip {
  id: string;
  kind: 'text' | 'image' | 'audio';
  label: string;
  /** Path, line range, language; or the image's type and size. */
  detail: string;
  tokens: number;
}

export const ATTACHMENT_LIMITS = {
  perTurn: 50,
  path: 1000,
  language: 100,
  /** Characters of one text attachment (the byte limit the user sets is checked when the file is read). */
  text: 10_000_000,
  imageName: 200,
  /** Bytes of one image. */
  imageBytes: 5 * 1024 * 1024,
} as const;

/** Base64 characters for `bytes` bytes. */
export function base64Length(bytes: number): number {
  return Math.ceil(bytes / 3) * 4;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function isImageType(value: unknown): value is ImageType {
  return typeof value === 'string' && (IMAGE_TYPES as readonly string[]).includes(value);
}

export function isImageData(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= base64Length(ATTACHMENT_LIMITS.imageBytes) && value.length % 4 === 0 && BASE64.test(value);
}

function cleanLine(value: unknown): number {
  const line = cleanCount(value);
  return line === undefined || line < 1 ? 1 : line;
}

function cleanTextAttachment(value: Fields): TextAttachment | undefined {
  const text = cleanText(value.text, ATTACHMENT_LIMITS.text);
  const path = cleanText(value.path, ATTACHMENT_LIMITS.path);
  if (!isId(value.id) || text === undefined || !path) return undefined;
  const startLine = cleanLine(value.startLine);
  const endLine = Math.max(startLine, cleanLine(value.endLine));
  return {
    kind: 'text',
    id: value.id,
    source: TEXT_SOURCES.includes(value.source as TextSource) ? (value.source as TextSource) : 'file',
    path,
    language: /^[\w.+#-]{0,100}$/.test(String(value.language ?? '')) ? String(value.language ?? '') : '',
    startLine,
    endLine,
    totalLines: Math.max(endLine - startLine + 1, cleanCount(value.totalLines) ?? 0),
    text,
  };
}

function cleanImageAttachment(value: Fields): ImageAttachment | undefined {
  if (!isId(value.id) || !isImageType(value.mimeType) || !isImageData(value.data)) return undefined;
  return { kind: 'image', id: value.id, name: cleanText(value.name, ATTACHMENT_LIMITS.imageName) || 'image', mimeType: value.mimeType, data: value.data };
}

export function cleanAttachment(value: unknown): Attachment | undefined {
  if (!isRecord(value)) return undefined;
  if (value.kind === 'text') return cleanTextAttachment(value);
  if (value.kind === 'image') return cleanImageAttachment(value);
  return undefined;
}

export function cleanAttachments(value: unknown): Attachment[] {
  return cleanArray(value, ATTACHMENT_LIMITS.perTurn, cleanAttachment);
}

export function cleanChip(value: unknown): AttachmentChip | undefined {
  if (!isRecord(value) || !isId(value.id) || (value.kind !== 'text' && value.kind !== 'image' && value.kind !== 'audio')) return undefined;
  return { id: value.id, kind: value.kind, label: cleanText(value.label, 300) || 'attachment', detail: cleanText(value.detail, 1000) ?? '', tokens: cleanCount(value.tokens) ?? 0 };
}

export function cleanChips(value: unknown): AttachmentChip[] {
  return cleanArray(value, ATTACHMENT_LIMITS.perTurn, cleanChip);
}

// ---- token estimate ------------------------------------------------------------------------------------------

/** The gateway exposes no tokenizer: about four characters per token, rounded up, errs slightly high. */
export const CHARS_PER_TOKEN = 4;
/** A few tokens of framing per chat message. */
export const TOKENS_PER_MESSAGE = 3;
/** What one image costs at most in OpenAI's high-detail accounting for a 1024×1024 picture; used for every image. */
export const TOKENS_PER_IMAGE = 765;
/** The path, line range and fence around a text attachment. */
const FRAMING_TOKENS = 12;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function attachmentTokens(attachment: Attachment): number {
  if (attachment.kind === 'audio') return 0;
  return attachment.kind === 'image' ? TOKENS_PER_IMAGE : estimateTextTokens(attachment.text) + FRAMING_TOKENS;
}

export function lineRange(startLine: number, endLine: number): string {
  return startLine === endLine ? `line ${startLine}` : `lines ${startLine}–${endLine}`;
}

export function imageBytes(attachment: ImageAttachment): number {
  const padding = attachment.data.endsWith('==') ? 2 : attachment.data.endsWith('=') ? 1 : 0;
  return (attachment.data.length / 4) * 3 - padding;
}

function sizeText(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function chipOf(attachment: Attachment): AttachmentChip {
  const tokens = attachmentTokens(attachment);
  if (attachment.kind === 'image') {
    return { id: attachment.id, kind: 'image', label: attachment.name, detail: `${attachment.mimeType.slice(6).toUpperCase()} image, ${sizeText(imageBytes(attachment))}`, tokens };
  }
  if (attachment.kind === 'audio') return { id: attachment.id, kind: 'audio', label: attachment.name, detail: `Audio, ${sizeText(attachment.bytes)}: type /transcribe to put its transcript into the chat`, tokens };
  const name = attachment.path.split('/').pop() || attachment.path;
  const label = attachment.source === 'problems' ? `Problems: ${name}` : attachment.source === 'selection' || attachment.source === 'lines' ? `${name}:${attachment.startLine}-${attachment.endLine}` : name;
  const lines = attachment.endLine - attachment.startLine + 1;
  const trimmed = lines < attachment.totalLines ? ` (trimmed from ${attachment.totalLines} lines)` : '';
  return { id: attachment.id, kind: 'text', label, detail: `${attachment.path}, ${lineRange(attachment.startLine, attachment.endLine)}${trimmed}${attachment.language ? `, ${attachment.language}` : ''}`, tokens };
}
