// Streamed speech (issue 35): the audio is handed on as it arrives, from a chunked body or SSE `speech.audio.delta`
// events, only once its first bytes are known to be audio, bounded; the media core writes it to a growing file and
// says so when the first bytes are on disk, before the answer is complete; the history then keeps the whole file.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayClient } from '../../../src/gateway/client';
import { GatewayError } from '../../../src/gateway/errors';
import { SpeechAudioCollector } from '../../../src/gateway/speechCall';
import type { AudioStart } from '../../../src/media/core/growingAudio';
import { synthesizeSpeech, type MediaCoreDeps } from '../../../src/media/core/mediaGeneration';
import { MediaHistory } from '../../../src/media/core/mediaHistory';
import { mediaCalls } from '../../../src/media/core/mediaCalls';
import { toCatalogModel } from '../../../src/models/core/modelListing';
import { readSettings } from '../../../src/settings/settings';
import { realClock } from '../../../src/util/clock';
import { startSimulator, type Simulator } from '../../simulator';

const WAV_HEAD = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')]);

describe('streamed speech (issue 35)', function () {
  this.timeout(20_000);

  describe('the audio collector', () => {
    it('holds the first bytes back until they show audio, then hands on every piece in order', () => {
      const seen: Array<[string, string]> = [];
      const audio = new SpeechAudioCollector(1000, (chunk, type) => seen.push([Buffer.from(chunk).toString('latin1'), type]));
      audio.push(WAV_HEAD.subarray(0, 5));
      assert.deepEqual(seen, [], 'five bytes cannot tell WAV');
      audio.push(WAV_HEAD.subarray(5));
      audio.push(Buffer.from('data'));
      assert.deepEqual(seen, [[WAV_HEAD.toString('latin1'), 'audio/wav'], ['data', 'audio/wav']]);
      assert.equal(audio.bytes().length, WAV_HEAD.length + 4);
    });

    it('never hands on an error page or JSON as sound, and stops at the limit', () => {
      const seen: Uint8Array[] = [];
      const page = new SpeechAudioCollector(1000, (chunk) => void seen.push(chunk));
      page.push(Buffer.from('{"error":{"message":"no credits"}}'));
      page.bytes();
      assert.equal(seen.length, 0);
      const small = new SpeechAudioCollector(16, (chunk) => void seen.push(chunk));
      assert.equal(small.push(WAV_HEAD), true);
      assert.equal(small.push(Buffer.alloc(8)), false);
      assert.equal(small.overflow, true);
      assert.equal(small.push(Buffer.alloc(1)), false, 'nothing more is taken');
    });

    it('reads speech.audio.delta events (base64, sized before decoding), the done event and an error event', () => {
      const seen: Buffer[] = [];
      const audio = new SpeechAudioCollector(1000, (chunk) => seen.push(Buffer.from(chunk)));
      assert.equal(audio.pushEvent(JSON.stringify({ type: 'speech.audio.delta', audio: WAV_HEAD.toString('base64') })), true);
      assert.equal(audio.pushEvent('not json'), true);
      assert.equal(audio.pushEvent(JSON.stringify({ type: 'speech.audio.delta', audio: '!!not base64!!' })), true, 'skipped');
      assert.equal(audio.pushEvent(JSON.stringify({ type: 'speech.audio.done', usage: {} })), false);
      assert.ok(audio.done);
      assert.deepEqual(Buffer.concat(seen), WAV_HEAD);
      const big = new SpeechAudioCollector(10, () => undefined);
      assert.equal(big.pushEvent(JSON.stringify({ type: 'speech.audio.delta', audio: Buffer.alloc(30).toString('base64') })), false);
      assert.ok(big.overflow, 'refused by its decoded size');
      const failed = new SpeechAudioCollector(10, () => undefined);
      assert.equal(failed.pushEvent(JSON.stringify({ type: 'error', error: { message: 'moderated' } })), false);
      assert.deepEqual(failed.error, { message: 'moderated' });
    });
  });

  describe('through the client', () => {
    let server: Server;
    let held: ServerResponse | undefined;
    let baseUrl: string;
    before(async () => {
      // Sends the first piece of a WAV at once and the rest only when the test says (`held.end`).
      server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'audio/wav' });
          res.write(WAV_HEAD);
          held = res;
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('hands the first bytes on while the answer is still arriving', async () => {
      const client = new GatewayClient({ baseUrl, apiKey: 'k' });
      let first: (() => void) | undefined;
      const firstBytes = new Promise<void>((resolve) => (first = resolve));
      const pieces: Buffer[] = [];
      let finished = false;
      const call = client
        .synthesizeSpeech({ model: 'm', input: 'hello', voice: 'nova' }, { onAudio: (chunk) => (pieces.push(Buffer.from(chunk)), first?.()) })
        .finally(() => (finished = true));
      await firstBytes;
      assert.equal(finished, false, 'the answer is not complete yet');
      assert.deepEqual(Buffer.concat(pieces), WAV_HEAD);
      held!.end(Buffer.from('more'));
      const audio = await call;
      assert.deepEqual(Buffer.from(audio.audio), Buffer.concat([WAV_HEAD, Buffer.from('more')]));
      assert.deepEqual(Buffer.concat(pieces), Buffer.from(audio.audio), 'every byte handed on once, in order');
      await client.close();
    });

    it('refuses an answer over the limit while it streams', async () => {
      const client = new GatewayClient({ baseUrl, apiKey: 'k' });
      const call = client.synthesizeSpeech({ model: 'm', input: 'hello', voice: 'nova' }, { maxBytes: 20, onAudio: () => held!.end(Buffer.alloc(64)) });
      await assert.rejects(call, (e: GatewayError) => e.code === 'too_large');
      await client.close();
    });
  });

  describe('the media core', () => {
    let sim: Simulator;
    let client: GatewayClient;
    let folder: string;
    let history: MediaHistory;
    const deps = (): MediaCoreDeps => ({
      connection: { origin: sim.origin, access: async () => ({ ok: true, api: client, origin: sim.origin }), resultFetchOptions: async () => ({}) },
      models: { load: async () => ({ origin: sim.origin, loadedAt: 0, models: [toCatalogModel({ id: 'model-speech-1.0', object: 'model' })] }) },
      history,
      settings: () => ({ ...readSettings({ userValue: () => undefined, value: () => undefined }).media, speechFormat: 'wav' }),
      dialect: () => undefined,
    });
    before(async () => {
      sim = await startSimulator();
      client = new GatewayClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });
    });
    after(async () => {
      await client.close();
      await sim.close();
    });
    beforeEach(async () => {
      folder = await mkdtemp(join(tmpdir(), 'media-stream-'));
      history = new MediaHistory({ folder, clock: realClock, limit: () => 100 });
    });
    afterEach(async () => {
      history.dispose();
      await rm(folder, { recursive: true, force: true });
    });

    for (const streamFormat of ['audio', 'sse'] as const) {
      it(`writes the ${streamFormat} stream to a growing file, says so at the first bytes, and keeps the whole audio`, async () => {
        const text = 'Every word of this sentence arrives in its own good time.';
        const whole = await synthesizeSpeech(deps(), { text, voice: 'nova' });
        const starts: Array<AudioStart & { size: number; entries: number }> = [];
        const entry = await synthesizeSpeech(deps(), { text, voice: 'nova', streamFormat }, { onAudioStart: (start) => starts.push({ ...start, size: statSync(start.path).size, entries: history.entries().length }) });
        assert.equal(starts.length, 1);
        assert.equal(starts[0]!.contentType, 'audio/wav');
        assert.ok(starts[0]!.size > 0, 'the first bytes are on disk');
        assert.equal(starts[0]!.entries, 1, 'before the answer is complete and kept');
        assert.match(starts[0]!.path, /stream-[0-9a-f]{16}\.wav\.part$/);
        assert.ok(!existsSync(starts[0]!.path), 'the growing file is gone once the history keeps its copy');
        assert.deepEqual(await readFile(history.filePath(entry.files[0]!)), await readFile(history.filePath(whole.files[0]!)), 'the same audio as asked whole');
        const body = sim.log.filter((e) => e.path === '/v1/audio/speech').at(-1)?.body as Record<string, unknown>;
        assert.equal(body.stream_format, streamFormat);
        assert.deepEqual(readdirSync(history.filesFolder).filter((n) => n.endsWith('.part')), []);
      });
    }

    it('hands each piece on through the MediaApi the chat uses (onAudio), and together they are the kept file', async () => {
      const pieces: Buffer[] = [];
      const types = new Set<string>();
      const calls = mediaCalls(deps(), async () => ({}) as never, {} as never);
      const onAudio = (chunk: Uint8Array, type: string) => (pieces.push(Buffer.from(chunk)), types.add(type));
      const kept = await calls.synthesizeSpeech({ text: 'Read aloud in the chat, as it arrives.' }, { signal: new AbortController().signal, surface: 'chat-speech', onAudio });
      const file = history.get(kept.entryId)!.files[0]!;
      assert.deepEqual(Buffer.concat(pieces), await readFile(history.filePath(file)));
      assert.deepEqual([...types], [kept.contentType]);
    });

    it('removes the growing file when the answer breaks off after its first bytes', async () => {
      const starts: AudioStart[] = [];
      sim.setDefaultFault('drop-mid-stream', 1);
      await assert.rejects(synthesizeSpeech(deps(), { text: 'This answer breaks off halfway through.', voice: 'nova' }, { onAudioStart: (s) => starts.push(s) }));
      assert.equal(starts.length, 1, 'its first half arrived');
      assert.deepEqual(readdirSync(history.filesFolder).filter((n) => n.endsWith('.part')), []);
      assert.deepEqual(history.entries(), []);
    });
  });
});
