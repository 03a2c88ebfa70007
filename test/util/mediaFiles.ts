// Checks that bytes really are a PNG or a WAV file, for tests of generated media (Node and the extension host):
// a PNG's chunks and their CRCs, its IHDR and the size of its inflated pixel data; a WAV's RIFF and fmt headers and
// the length of its data.
import { inflateSync } from 'node:zlib';
import { crc32 } from '../simulator/png';

export interface PngInfo {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
}

/** Throws unless `bytes` is a complete PNG with valid chunks; returns its header. */
export function parsePng(bytes: Uint8Array): PngInfo {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (!buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) throw new Error('no PNG signature');
  let offset = 8;
  let info: PngInfo | undefined;
  const idat: Buffer[] = [];
  let ended = false;
  while (offset < buf.length) {
    const length = buf.readUInt32BE(offset);
    const type = buf.toString('ascii', offset + 4, offset + 8);
    const data = buf.subarray(offset + 8, offset + 8 + length);
    const crc = buf.readUInt32BE(offset + 8 + length);
    if (crc !== crc32(buf.subarray(offset + 4, offset + 8 + length))) throw new Error(`bad CRC in ${type}`);
    if (type === 'IHDR') info = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), bitDepth: data[8], colourType: data[9] };
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
    if (type === 'IEND') {
      ended = true;
      break;
    }
  }
  if (!info || !ended) throw new Error('PNG without IHDR or IEND');
  const channels = info.colourType === 2 ? 3 : info.colourType === 6 ? 4 : 1;
  const expected = (info.width * channels * (info.bitDepth / 8) + 1) * info.height;
  const pixels = inflateSync(Buffer.concat(idat));
  if (pixels.length !== expected) throw new Error(`PNG pixel data is ${pixels.length} bytes, expected ${expected}`);
  return info;
}

export interface WavInfo {
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  dataBytes: number;
  seconds: number;
}

/** Throws unless `bytes` is a RIFF/WAVE file with a fmt chunk and a data chunk that fits; returns its format. */
export function parseWav(bytes: Uint8Array): WavInfo {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') throw new Error('no RIFF/WAVE header');
  if (buf.readUInt32LE(4) !== buf.length - 8) throw new Error('RIFF size does not match the file');
  let offset = 12;
  let fmt: Omit<WavInfo, 'dataBytes' | 'seconds'> | undefined;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    if (id === 'fmt ') fmt = { format: buf.readUInt16LE(offset + 8), channels: buf.readUInt16LE(offset + 10), sampleRate: buf.readUInt32LE(offset + 12), bitsPerSample: buf.readUInt16LE(offset + 22) };
    if (id === 'data') {
      if (!fmt) throw new Error('data before fmt');
      if (offset + 8 + size > buf.length) throw new Error('data chunk runs past the end');
      return { ...fmt, dataBytes: size, seconds: size / (fmt.sampleRate * fmt.channels * (fmt.bitsPerSample / 8)) };
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error('no data chunk');
}
