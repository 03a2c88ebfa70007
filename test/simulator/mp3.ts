// Silent MP3 (MPEG-1 Layer III, 44.1 kHz, 32 kbit/s, mono), made without an encoder: a frame whose side information
// is all zero codes no spectrum at all, so it decodes to 1152 samples of silence. Enough for a player to buffer,
// play and seek a file of a known length; the simulator streams it for `response_format: mp3`.
export const MP3_FRAME_SAMPLES = 1152;
export const MP3_SAMPLE_RATE = 44_100;
/** 144 × 32000 / 44100, rounded down (no padding frames): the length of every frame. */
const FRAME_BYTES = 104;
// Sync, MPEG-1, Layer III, no CRC; 32 kbit/s, 44.1 kHz, no padding; mono.
const HEADER = [0xff, 0xfb, 0x10, 0xc0];

/** `seconds` of silence (at least one frame). */
export function silentMp3(seconds: number): Buffer {
  const frames = Math.max(1, Math.ceil((seconds * MP3_SAMPLE_RATE) / MP3_FRAME_SAMPLES));
  const bytes = Buffer.alloc(frames * FRAME_BYTES);
  for (let f = 0; f < frames; f++) bytes.set(HEADER, f * FRAME_BYTES);
  return bytes;
}
