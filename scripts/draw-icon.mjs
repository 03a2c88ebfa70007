// Draws media/icon.png (128×128, RGBA): a gateway arch with a play mark on a rounded indigo-to-teal square.
// Shapes are signed distance functions sampled 4×4 per pixel for smooth edges; the PNG is written by hand
// (zlib from Node, CRC-32 below), so no image tool is needed. Run: node scripts/draw-icon.mjs
// The committed file was then quantized (Debian's pngquant --quality=85-98, then optipng -o7): 12.4 KB became
// 4.6 KB with no visible change, which the .vsix's 600 KB limit needed. Quantize again after redrawing.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const SIZE = 128;
const SAMPLES = 4;

const clamp = (v, lo = 0, hi = 1) => Math.min(hi, Math.max(lo, v));
const mix = (a, b, t) => a.map((v, i) => v + (b[i] - v) * t);
const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

function roundedSquare(x, y, half, radius) {
  const qx = Math.abs(x - 64) - (half - radius);
  const qy = Math.abs(y - 64) - (half - radius);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

function segment(x, y, ax, ay, bx, by) {
  const t = clamp(((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2));
  return Math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay));
}

/** Distance to the arch's centre line: a half circle on two posts. */
function arch(x, y) {
  const cx = 64, cy = 58, r = 27, bottom = 100;
  const onArc = y <= cy ? Math.abs(Math.hypot(x - cx, y - cy) - r) : Infinity;
  return Math.min(onArc, segment(x, y, cx - r, cy, cx - r, bottom), segment(x, y, cx + r, cy, cx + r, bottom));
}

/** Signed distance to a right-pointing triangle (negative inside). */
function play(x, y) {
  const pts = [[55, 60], [55, 90], [80, 75]];
  let inside = true;
  let d = Infinity;
  for (let i = 0; i < 3; i++) {
    const [ax, ay] = pts[i];
    const [bx, by] = pts[(i + 1) % 3];
    d = Math.min(d, segment(x, y, ax, ay, bx, by));
    if ((bx - ax) * (y - ay) - (by - ay) * (x - ax) > 0) inside = false;
  }
  return inside ? -d : d;
}

const top = hex('#312e81');
const bottom = hex('#0e7490');
const white = [255, 255, 255];

function shade(x, y) {
  if (roundedSquare(x, y, 62, 22) > 0) return [0, 0, 0, 0];
  let color = mix(top, bottom, clamp((x + y) / (2 * SIZE)));
  const glow = clamp(1 - Math.hypot(x - 64, y - 70) / 70) * 0.18;
  color = mix(color, white, glow);
  if (arch(x, y) < 6) color = white;
  if (play(x, y) < 1.5) color = mix(white, hex('#a5f3fc'), 0.35);
  return [...color, 255];
}

const rows = [];
for (let py = 0; py < SIZE; py++) {
  const row = Buffer.alloc(1 + SIZE * 4); // filter byte 0, then RGBA
  for (let px = 0; px < SIZE; px++) {
    const sum = [0, 0, 0, 0];
    for (let sy = 0; sy < SAMPLES; sy++) {
      for (let sx = 0; sx < SAMPLES; sx++) {
        const [r, g, b, a] = shade(px + (sx + 0.5) / SAMPLES, py + (sy + 0.5) / SAMPLES);
        sum[0] += r * a;
        sum[1] += g * a;
        sum[2] += b * a;
        sum[3] += a;
      }
    }
    const alpha = sum[3] / SAMPLES ** 2;
    for (let c = 0; c < 3; c++) row[1 + px * 4 + c] = sum[3] ? Math.round(sum[c] / sum[3]) : 0;
    row[1 + px * 4 + 3] = Math.round(alpha);
  }
  rows.push(row);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const out = join(resolve(fileURLToPath(import.meta.url), '../..'), 'media', 'icon.png');
writeFileSync(out, png);
console.log(`${out}: ${png.length} bytes`);
