// Images through chat completions (route 'chat') against a scripted server playing a hostile gateway: what goes over
// the wire, images read from message.images[] and delta.images, the text kept as the caption, in-band errors, and
// data: URLs decoded only within the size limit (counted first, no regex over the data).
import * as assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { splitDataUrl } from '../../../src/util/dataUrl';
import { encodePng } from '../../simulator/png';
import { rejectionOf } from './helpers/rejection';
import { sendJson, startServer, type TestServer } from './helpers/server';
import { useClients } from './helpers/clients';

const PNG = encodePng(2, 2, new Uint8Array(12).fill(90));
const DATA_URL = `data:image/png;base64,${PNG.toString('base64')}`;
const IMAGE = { model: 'google/gemini-image', prompt: 'a lighthouse' };
const imagePart = (url: string) => ({ type: 'image_url', image_url: { url } });
const sse = (res: ServerResponse, events: unknown[]) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(`: OPENROUTER PROCESSING\n\n${events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('')}`);
};

describe('gateway: images through chat completions', () => {
  let server: TestServer;
  let answer: (res: ServerResponse) => void = () => undefined;
  const { makeClient } = useClients(() => ({ baseUrl: server.baseUrl, apiKey: 'sk-chat-img', maxRetries: 2 }));

  before(async () => {
    server = await startServer((_req, res) => answer(res));
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('sends modalities ["image","text"] to /chat/completions and reads message.images[], the text as the caption', async () => {
    answer = (res) => sendJson(res, 200, { created: 5, choices: [{ message: { role: 'assistant', content: 'A lighthouse at dusk.', images: [imagePart(DATA_URL)] } }] });
    const result = await makeClient().generateImage({ ...IMAGE, size: '1024x1024' }, { route: 'chat' });
    const sent = server.requests[0];
    assert.equal(sent.url, '/v1/chat/completions');
    assert.deepEqual(JSON.parse(sent.body), { model: IMAGE.model, messages: [{ role: 'user', content: 'a lighthouse' }], modalities: ['image', 'text'], stream: true });
    assert.equal(result.images.length, 1);
    const [image] = result.images;
    assert.ok(image.kind === 'data');
    assert.deepEqual(Buffer.from(image.data), PNG);
    assert.equal(image.caption, 'A lighthouse at dusk.');
  });

  it('reads delta.images and delta.content from a stream, and sends the image to edit in the user message', async () => {
    answer = (res) => sse(res, [{ created: 7, choices: [{ delta: { content: 'Edited ' } }] }, { choices: [{ delta: { content: 'it.', images: [imagePart(DATA_URL)] } }] }, { choices: [{ delta: {}, finish_reason: 'stop' }] }, '[DONE]']);
    const result = await makeClient().generateImage({ ...IMAGE, image: { data: PNG, contentType: 'image/png' } }, { route: 'chat' });
    assert.equal(result.images[0].caption, 'Edited it.');
    assert.equal(result.created, 7);
    const [message] = JSON.parse(server.requests[0].body).messages;
    assert.deepEqual(message.content, [{ type: 'text', text: 'a lighthouse' }, imagePart(DATA_URL)]);
  });

  it('fails with the gateway\'s own words on an error after the 200 (an error chunk), and is never retried', async () => {
    answer = (res) => sse(res, [{ choices: [{ delta: { content: 'Working' } }] }, { error: { code: 402, message: 'Insufficient credits' } }]);
    const error = await rejectionOf(makeClient().generateImage(IMAGE, { route: 'chat' }));
    assert.match(error.message, /Insufficient credits/);
    assert.equal(server.requests.length, 1, 'paid work is sent once');
  });

  it('says so when the reply holds no image, quoting the text', async () => {
    answer = (res) => sendJson(res, 200, { choices: [{ message: { role: 'assistant', content: 'I can only write text.' } }] });
    const error = await rejectionOf(makeClient().generateImage(IMAGE, { route: 'chat' }));
    assert.match(error.message, /holds no image.*I can only write text\./);
  });

  it('refuses a data: URL over the size limit before decoding it, and one that is not base64', async () => {
    const big = `data:image/png;base64,${Buffer.concat([PNG, Buffer.alloc(4096)]).toString('base64')}`;
    answer = (res) => sendJson(res, 200, { choices: [{ message: { images: [imagePart(big), imagePart('data:image/png,raw'), imagePart(DATA_URL)] } }] });
    const result = await makeClient().generateImage({ ...IMAGE, n: 3 }, { route: 'chat', maxBytes: 1024 });
    assert.equal(result.images.length, 1);
    assert.match(result.rejected[0], /^Image 1: it is larger than the limit of 1(\.0)? KB/);
    assert.match(result.rejected[1], /^Image 2: its data: link is not base64\./);
  });

  it('splits a data: URL by looking for its header only in its first characters (no regex over the data)', () => {
    assert.deepEqual(splitDataUrl('data:image/png;base64,AAAA'), { mediaType: 'image/png', base64: true, dataStart: 22 });
    assert.deepEqual(splitDataUrl('DATA:image/webp;charset=x;BASE64,AAAA'), { mediaType: 'image/webp', base64: true, dataStart: 33 });
    assert.equal(splitDataUrl(`data:image/png;${'a;'.repeat(2_000_000)},AAAA`), undefined, 'a comma past the header limit is not looked for');
    assert.equal(splitDataUrl('data:image/png;base64'), undefined);
    assert.equal(splitDataUrl('https://example.com/a.png'), undefined);
  });
});
