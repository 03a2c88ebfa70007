// The kept speech file, served as the webview's resource loader serves it (with ranges, so a player can seek in it),
// for the pages that move from the streamed audio to it (the speech player, the chat's /speak card).
import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Page } from 'playwright-core';
import { listenOnLoopback, type LoopbackServer } from '../util/loopbackServer';

export type KeptAudioServer = LoopbackServer;

/** Serves `audio` as /speech.mp3 on 127.0.0.1. */
export function keptAudioServer(audio: Uint8Array): Promise<KeptAudioServer> {
  const server = createServer((request, response) => {
    if (request.url !== '/speech.mp3') return void response.writeHead(404).end();
    const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
    if (!range) return void response.writeHead(200, { 'content-type': 'audio/mpeg', 'accept-ranges': 'bytes' }).end(audio);
    const start = Number(range[1]);
    const end = range[2] ? Math.min(Number(range[2]), audio.length - 1) : audio.length - 1;
    response.writeHead(206, { 'content-type': 'audio/mpeg', 'accept-ranges': 'bytes', 'content-range': `bytes ${start}-${end}/${audio.length}` }).end(audio.subarray(start, end + 1));
  });
  return listenOnLoopback(server);
}

/**
 * Pauses the page's streaming `<audio>` (found by `selector`) and waits until it has moved to the kept file, loaded
 * (8 s long) and at the place the stream was paused: the move waits for a pause so the sound is not cut.
 */
export async function pauseAndExpectKeptFile(page: Page, selector: string, files: KeptAudioServer): Promise<void> {
  const pausedAt = await page.evaluate((query) => {
    const audio = document.querySelector(query) as HTMLAudioElement;
    audio.pause();
    return audio.currentTime;
  }, selector);
  assert.ok(pausedAt > 0.1 && pausedAt < 8, String(pausedAt));
  await page.waitForFunction(
    ({ query, src, at }) => {
      const audio = document.querySelector(query) as HTMLAudioElement;
      return audio.currentSrc === src && Math.abs(audio.duration - 8) < 0.1 && Math.abs(audio.currentTime - at) < 0.05;
    },
    { query: selector, src: `${files.origin}/speech.mp3`, at: pausedAt },
  );
}
