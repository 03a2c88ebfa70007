// generateImage and synthesizeSpeech against a scripted server playing a hostile gateway: what goes over the wire,
// how every field of the answer is checked and capped, what is refused with which message, and that paid work is
// never sent twice.

import * as assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GatewayClient } from '../../../src/gateway/client';
import { FakeClock } from '../../util/fakeClock';
import { encodePng } from '../../simulator/png';
import { encodeWav } from '../../simulator/wav';
import { rejectionOf } from './helpers/rejection';
import { recordingSleep, sendJson, startServer, type TestServer } from './helpers/server';
import { useClients } from './helpers/clients';

const PNG = encodePng(2, 2, new Uint8Array(12).fill(200));
const WAV = encodeWav(new Float32Array(160));
const IMAGE = { model: 'model-image-1.0', prompt: 'a lighthouse' };
const SPEECH = { model: 'model-speech-1.0', input: 'Hello there.', voice: 'alloy' };
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

type Step = (res: ServerResponse, req: IncomingMessage) => void;
const json =
  (body: unknown, status = 200, headers: Record<string, string> = {}): Step =>
  (res) =>
    sendJson(res, status, body, headers);
const bytes =
  (data: Uint8Array, contentType: string | undefined, extra: Record<string, string> = {}): Step =>
  (res) => {
    res.writeHead(200, { ...(contentType && { 'content-type': contentType }), 'content-length': String(data.length), ...extra });
    res.end(data);
  };

describe('gateway: images and speech', () => {
  let server: TestServer;
  let steps: Step[] = [];
  let recorder: ReturnType<typeof recordingSleep>;
  const clock = new FakeClock(1_760_000_000_000);

  const { makeClient } = useClients(() => ({ baseUrl: server.baseUrl, apiKey: 'sk-media', sleep: recorder.sleep, random: () => 0, clock }));

  before(async () => {
    server = await startServer((req, res) => steps[Math.min(server.requests.length - 1, steps.length - 1)](res, req));
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    recorder = recordingSleep();
  });

  describe('generateImage', () => {
    it('posts exactly the OpenAI-compatible body to the configured path and decodes base64 images', async () => {
      steps = [json({ created: 1_750_000_000, data: [{ b64_json: b64(PNG), revised_prompt: 'a lighthouse at dawn' }, { b64_json: b64(PNG) }] })];
      const result = await makeClient({ paths: { images: '/v2/img/create' } }).generateImage({ ...IMAGE, n: 2, size: '256x256', response_format: 'b64_json', extra: 'dropped' } as never);
      const sent = server.requests[0];
      assert.equal(sent.method, 'POST');
      assert.equal(sent.url, '/v1/v2/img/create');
      assert.equal(sent.headers.authorization, 'Bearer sk-media');
      assert.equal(sent.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(sent.body), { model: 'model-image-1.0', prompt: 'a lighthouse', n: 2, size: '256x256', response_format: 'b64_json' });
      assert.equal(result.created, 1_750_000_000);
      assert.deepEqual(result.rejected, []);
      assert.equal(result.images.length, 2);
      const [first] = result.images;
      assert.ok(first.kind === 'data');
      assert.equal(first.contentType, 'image/png');
      assert.deepEqual(Buffer.from(first.data), PNG);
      assert.equal(first.revisedPrompt, 'a lighthouse at dawn');
    });

    it('keeps checked links (relative ones resolved against the base URL) and decodes data: links', async () => {
      steps = [json({ created: 1, data: [{ url: 'https://cdn.example/a.png?sig=x' }, { url: '/files/b.png' }, { url: 'files/c.png' }, { url: `data:image/png;base64,${b64(PNG)}` }] })];
      const result = await makeClient().generateImage({ ...IMAGE, n: 4 });
      assert.deepEqual(
        result.images.map((i) => (i.kind === 'url' ? i.url : i.contentType)),
        ['https://cdn.example/a.png?sig=x', `${server.origin}/files/b.png`, `${server.origin}/v1/files/c.png`, 'image/png'],
      );
    });

    it('drops every entry it cannot trust, saying why, and keeps the rest', async () => {
      const big = Buffer.concat([PNG, Buffer.alloc(2048)]);
      steps = [
        json({
          created: 'yesterday',
          data: [
            { url: 'javascript:alert(1)' },
            { url: 'https://user:pw@cdn.example/x.png' },
            { b64_json: 'not base64 at all!' },
            { b64_json: b64(Buffer.from('<!DOCTYPE html><title>Sign in</title>')) },
            { b64_json: b64(big) },
            { nothing: true },
            'a string',
            { b64_json: b64(PNG) },
            { b64_json: b64(PNG) },
          ],
        }),
      ];
      const result = await makeClient().generateImage({ ...IMAGE, n: 8 }, { maxBytes: 1024 });
      assert.equal(result.created, Math.floor(clock.now() / 1000), 'a created that is not a number is replaced by now');
      assert.equal(result.images.length, 1, 'the ninth entry is beyond the 8 asked for');
      const rejected = result.rejected.join('\n');
      assert.match(rejected, /sent 9 images for 8 asked; only the first 8 are kept/);
      assert.match(rejected, /Image 1: Refused .* javascript: link/);
      assert.match(rejected, /Image 2: Refused .* user name or password/);
      assert.match(rejected, /Image 3: its b64_json is not base64/);
      assert.match(rejected, /Image 4: it is not a PNG, JPEG, WebP or GIF image: it is an HTML page \(“<!DOCTYPE html><title>Sign in<\/title>”\)/);
      assert.match(rejected, /Image 5: it is larger than the limit of 1\.0 KB/);
      assert.match(rejected, /Image 6: it has neither a url nor b64_json/);
      assert.match(rejected, /Image 7: the entry is not an object/);
    });

    it('fails with bad_response (outcome unknown: the gateway did the work) when no entry is an image', async () => {
      steps = [json({ created: 1, data: [{ b64_json: b64(Buffer.from('GIF? no, plain text')) }] })];
      const error = await rejectionOf(makeClient().generateImage(IMAGE));
      assert.equal(error.code, 'bad_response');
      assert.equal(error.outcomeUnknown, true);
      assert.match(error.message, /^The gateway sent no usable image\. Image 1: it is not a PNG, JPEG, WebP or GIF image: it is text/);
      assert.equal(server.requests.length, 1);
    });

    it('reads an error object inside a 200 as the gateway\'s error', async () => {
      steps = [json({ error: { code: 'content_policy_violation', message: 'Your prompt was rejected.' } })];
      const error = await rejectionOf(makeClient().generateImage(IMAGE));
      assert.equal(error.code, 'content_policy_violation');
      assert.equal(error.message, 'Your prompt was rejected.');
      assert.equal(error.fromServer, true);
    });

    it('refuses an answer without a data array, or that is not JSON', async () => {
      steps = [json({ created: 1 })];
      assert.match((await rejectionOf(makeClient().generateImage(IMAGE))).message, /no data array/);
      steps = [bytes(PNG, 'image/png')];
      assert.match((await rejectionOf(makeClient().generateImage(IMAGE))).message, /not valid JSON/);
    });

    it('refuses an answer larger than the images asked for can be (Content-Length or bytes), as too_large', async () => {
      const huge = JSON.stringify({ created: 1, data: [{ b64_json: 'A'.repeat(200_000) }] });
      steps = [(res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(huge.length) }).end(huge)];
      const declared = await rejectionOf(makeClient().generateImage(IMAGE, { maxBytes: 1 }));
      assert.equal(declared.code, 'too_large');
      assert.equal(declared.kind, 'bad_response');
      steps = [(res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`${huge}${' '.repeat(1_100_000)}`)];
      const streamed = await rejectionOf(makeClient().generateImage(IMAGE, { maxBytes: 1 }));
      assert.equal(streamed.code, 'too_large');
      assert.match(streamed.message, /larger than the limit of 1\.0 MB/);
    });

    for (const code of [429, 500, 503]) {
      it(`never retries ${code}: the images may be paid for`, async () => {
        steps = [json({ error: { message: `failure ${code}`, code: `e${code}` } }, code, { 'retry-after': '1' }), json({ created: 1, data: [{ b64_json: b64(PNG) }] })];
        const error = await rejectionOf(makeClient().generateImage(IMAGE));
        assert.equal(server.requests.length, 1);
        assert.equal(error.status, code);
        assert.equal(error.outcomeUnknown, false);
        assert.deepEqual(recorder.waits, []);
      });
    }

    it('does not retry when the connection dies after the request was sent, and flags the outcome unknown', async () => {
      steps = [(_res, req) => req.socket.destroy()];
      const error = await rejectionOf(makeClient().generateImage(IMAGE));
      assert.equal(server.requests.length, 1);
      assert.equal(error.code, 'network');
      assert.equal(error.outcomeUnknown, true);
    });

    it('stops at once when cancelled', async () => {
      steps = [() => undefined];
      const controller = new AbortController();
      const call = makeClient().generateImage(IMAGE, { signal: controller.signal });
      while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 2));
      controller.abort();
      const error = await rejectionOf(call);
      assert.equal(error.code, 'aborted');
    });

    it('refuses endpoint paths that would leave the base URL', () => {
      for (const images of ['images', '/images/../admin', '/images?x=1', '/a//b']) assert.throws(() => new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'k', paths: { images } }), TypeError, images);
    });
  });

  describe('synthesizeSpeech', () => {
    it('posts the OpenAI-compatible body and returns the audio with the type its bytes show', async () => {
      steps = [bytes(WAV, 'audio/mpeg')];
      const audio = await makeClient({ paths: { speech: '/tts' } }).synthesizeSpeech({ ...SPEECH, response_format: 'wav' });
      const sent = server.requests[0];
      assert.equal(sent.url, '/v1/tts');
      assert.match(String(sent.headers.accept), /^audio\/\*/);
      assert.deepEqual(JSON.parse(sent.body), { model: 'model-speech-1.0', input: 'Hello there.', voice: 'alloy', response_format: 'wav' });
      assert.equal(audio.contentType, 'audio/wav', 'the bytes decide, not the Content-Type');
      assert.deepEqual(Buffer.from(audio.audio), WAV);
    });

    it('recognises MP3, Ogg and FLAC whatever the server calls them', async () => {
      const cases: Array<[Buffer, string]> = [
        [Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]), 'audio/mpeg'],
        [Buffer.from([0xff, 0xfb, 0x90, 0x64, 0, 0]), 'audio/mpeg'],
        [Buffer.from('OggS\0\x02rest', 'latin1'), 'audio/ogg'],
        [Buffer.from('fLaC\0\0\0\x22', 'latin1'), 'audio/flac'],
      ];
      for (const [data, type] of cases) {
        steps = [bytes(data, 'application/octet-stream')];
        assert.equal((await makeClient().synthesizeSpeech(SPEECH)).contentType, type);
      }
    });

    it('fails on an empty audio response', async () => {
      steps = [bytes(Buffer.alloc(0), 'audio/mpeg')];
      const error = await rejectionOf(makeClient().synthesizeSpeech(SPEECH));
      assert.equal(error.code, 'bad_response');
      assert.equal(error.message, 'The gateway sent no audio (an empty answer).');
    });

    it('fails on a body that is not audio, saying what it is', async () => {
      steps = [bytes(Buffer.from('<html><title>Sign in</title></html>'), 'audio/mpeg')];
      const error = await rejectionOf(makeClient().synthesizeSpeech(SPEECH));
      assert.equal(error.code, 'bad_response');
      assert.match(error.message, /not audio of a known kind .*: it is an HTML page \(“<html><title>Sign in<\/title><\/html>”\) \(it said audio\/mpeg\)\.$/);
    });

    it('reads an error object sent with a 200 as the gateway\'s error', async () => {
      steps = [json({ error: { code: 'voice_not_found', message: 'No voice named robot.' } })];
      const error = await rejectionOf(makeClient().synthesizeSpeech(SPEECH));
      assert.equal(error.code, 'voice_not_found');
      assert.equal(error.fromServer, true);
    });

    it('refuses audio over the limit, by Content-Length or while reading', async () => {
      steps = [bytes(WAV, 'audio/wav')];
      const declared = await rejectionOf(makeClient().synthesizeSpeech(SPEECH, { maxBytes: 100 }));
      assert.equal(declared.code, 'too_large');
      assert.equal(declared.message, `The audio (${WAV.length} B) is larger than the limit of 100 B; it was refused.`);
      steps = [(res) => res.writeHead(200, { 'content-type': 'audio/wav' }).end(Buffer.concat([WAV, Buffer.alloc(70_000)]))];
      const streamed = await rejectionOf(makeClient().synthesizeSpeech(SPEECH, { maxBytes: 65_536 }));
      assert.equal(streamed.code, 'too_large');
    });

    it('never retries a server error', async () => {
      steps = [json({ error: { message: 'down' } }, 502), bytes(WAV, 'audio/wav')];
      const error = await rejectionOf(makeClient().synthesizeSpeech(SPEECH));
      assert.equal(error.status, 502);
      assert.equal(server.requests.length, 1);
    });
  });
});
