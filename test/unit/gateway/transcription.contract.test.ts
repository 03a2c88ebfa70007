// Contract test of the transcription client against a server nobody on this project wrote: @copilotkit/aimock reads
// OpenAI's multipart form (model, response_format, stream from the form's fields) and answers JSON, or a stream of
// transcript.text.delta events ending in transcript.text.done for a model other than whisper-1. Bound to 127.0.0.1.
import * as assert from 'node:assert/strict';
import { LLMock } from '@copilotkit/aimock';
import { GatewayClient } from '../../../src/gateway/client';
import { encodeWav, SAMPLE_RATE } from '../../simulator/wav';

const KEY = 'sk-contract-test-key';
const audio = new Uint8Array(encodeWav(new Float32Array(SAMPLE_RATE)));

describe('transcription against aimock (contract)', function () {
  let mock: LLMock;
  const clients: GatewayClient[] = [];

  before(async () => {
    mock = new LLMock({ port: 0, host: '127.0.0.1', logLevel: 'silent', chunkSize: 4 });
    mock.addFixturesFromJSON(JSON.stringify([{ match: { endpoint: 'transcription' }, response: { transcription: { text: 'The quick brown fox.', usage: { type: 'duration', seconds: 1 } } } }]));
    await mock.start();
  });

  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await mock?.stop().catch(() => undefined);
  });

  const client = () => {
    const made = new GatewayClient({ baseUrl: `${mock.url}/v1`, apiKey: KEY, maxRetries: 0 });
    clients.push(made);
    return made;
  };

  it('sends a multipart form aimock reads, and reads its JSON answer with usage', async () => {
    const result = await client().transcribeAudio({ model: 'whisper-1', audio, fileName: 'a.wav', format: 'text', dialect: 'openai' });
    assert.deepEqual([result.text, result.streamed, result.usage], ['The quick brown fox.', false, { seconds: 1 }]);
    const entry = mock.getRequests().at(-1)!;
    assert.equal((entry.body as { model: string }).model, 'whisper-1');
  });

  it('reads its stream of deltas as they arrive', async () => {
    const pieces: string[] = [];
    const result = await client().transcribeAudio({ model: 'gpt-4o-transcribe', audio, fileName: 'a.wav', format: 'text', dialect: 'openai', stream: true }, { onDelta: (p) => pieces.push(p) });
    assert.equal(result.streamed, true);
    assert.equal(pieces.join(''), 'The quick brown fox.');
    assert.ok(pieces.length > 1);
    assert.equal(result.text, 'The quick brown fox.');
  });
});
