// What generated media really is, read from its first bytes (never from what a server claims), and the one allowlist
// of media types the extension keeps, each with the file extension it is saved under. Browser-safe, no `vscode`.

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';
export type AudioType = 'audio/wav' | 'audio/mpeg' | 'audio/ogg' | 'audio/flac' | 'audio/aac' | 'audio/webm';
export type MediaType = ImageType | AudioType;

/** The only extensions a generated file is ever saved with, by type. */
export const MEDIA_EXTENSIONS: Readonly<Record<MediaType, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'audio/aac': 'aac',
  'audio/webm': 'webm',
};

export function isMediaType(value: unknown): value is MediaType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(MEDIA_EXTENSIONS, value);
}

export function isImageType(value: unknown): value is ImageType {
  return isMediaType(value) && value.startsWith('image/');
}

export function isAudioType(value: unknown): value is AudioType {
  return isMediaType(value) && value.startsWith('audio/');
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  return prefix.every((b, i) => bytes[at + i] === b);
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** PNG, JPEG, WebP or GIF by signature; undefined for anything else. */
export function sniffImage(bytes: Uint8Array): ImageType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  return undefined;
}

/** WAV, MP3, Ogg (Opus, Vorbis), FLAC, ADTS AAC or WebM by signature; undefined for anything else (raw PCM too). */
export function sniffAudio(bytes: Uint8Array): AudioType | undefined {
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WAVE'), 8)) return 'audio/wav';
  if (startsWith(bytes, ascii('OggS'))) return 'audio/ogg';
  if (startsWith(bytes, ascii('fLaC'))) return 'audio/flac';
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return 'audio/webm';
  if (startsWith(bytes, ascii('ID3'))) return 'audio/mpeg';
  if (bytes.length >= 4 && bytes[0] === 0xff) {
    const b1 = bytes[1];
    if ((b1 & 0xf6) === 0xf0) return 'audio/aac'; // ADTS: sync, layer 00
    // MPEG audio frame: sync, a version that is not reserved, a layer that is not reserved.
    if ((b1 & 0xe0) === 0xe0 && (b1 & 0x18) !== 0x08 && (b1 & 0x06) !== 0) return 'audio/mpeg';
  }
  return undefined;
}

/** A short, safe description of what some bytes look like, for "this is not an image" messages. */
export function describeBytes(bytes: Uint8Array): string {
  if (bytes.length === 0) return 'nothing (0 bytes)';
  const head = bytes.subarray(0, 64);
  const printable = head.every((b) => b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b < 0x7f) || b >= 0x80);
  if (printable) {
    const text = new TextDecoder('utf-8', { fatal: false }).decode(head).replace(/\s+/g, ' ').trim();
    const kind = /^<(!doctype|html)/i.test(text) ? 'an HTML page' : /^[{[]/.test(text) ? 'JSON' : 'text';
    return `${kind} (“${text.length > 40 ? `${text.slice(0, 39)}…` : text}”)`;
  }
  const hex = [...bytes.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  return `${bytes.length} bytes of unknown data (starting ${hex})`;
}
