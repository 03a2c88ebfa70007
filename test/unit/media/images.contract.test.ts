// Contract tests of the image endpoints against a server nobody on this project wrote: @copilotkit/aimock speaks
// POST /v1/images/generations and POST /v1/images/edits (multipart; it reads the text fields, ignores the files).
// Chat-returned images (message.images[]) are not among what it speaks: the simulator covers those.
import * as assert from 'node:assert/strict';
import { LLMock } from '@copilotkit/aimock';
import { GatewayClient } from '../../../src/gateway/client';
import { encodePng } from '../../simulator/png';

const KEY = 'sk-contract-test-key';
const PNG = encodePng(4, 3, new Uint8Array(36).fill(64));

describe('image endpoints against aimock (contract)', function () {
  let mock: LLMock;
  let client: GatewayClient;

  before(async () => {
    mock = new LLMock({ port: 0, host: '127.0.0.1', logLevel: 'silent' });
    mock.onImage('a lighthouse', { image: { b64Json: PNG.toString('base64'), revisedPrompt: 'a lighthouse at dawn' } });
    mock.onImage('make it blue', { images: [{ b64Json: PNG.toString('base64') }] });
    await mock.start();
    client = new GatewayClient({ baseUrl: `${mock.url}/v1`, apiKey: KEY, maxRetries: 0 });
  });
  after(async () => {
    await client?.close();
    await mock?.stop().catch(() => undefined);
  });
  beforeEach(() => mock.clearRequests());

  it('generates: the images endpoint answer is read into a checked PNG with its revised prompt', async () => {
    const result = await client.generateImage({ model: 'gpt-image-1', prompt: 'a lighthouse', size: '1024x1024' });
    const [image] = result.images;
    assert.ok(image.kind === 'data');
    assert.deepEqual(Buffer.from(image.data), PNG);
    assert.equal(image.revisedPrompt, 'a lighthouse at dawn');
    assert.equal(mock.getRequests()[0].path, '/v1/images/generations');
  });

  it('edits: the multipart form reaches /v1/images/edits with its prompt and model, and the answer is read the same way', async () => {
    const result = await client.generateImage({ model: 'gpt-image-1', prompt: 'make it blue', image: { data: PNG, contentType: 'image/png' }, mask: { data: PNG, contentType: 'image/png' } });
    assert.equal(result.images.length, 1);
    const [request] = mock.getRequests();
    assert.equal(request.path, '/v1/images/edits');
    assert.equal((request.body as { model?: string }).model, 'gpt-image-1');
    assert.match(String(request.headers['content-type']), /^multipart\/form-data; boundary=/);
  });
});
