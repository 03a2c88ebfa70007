// transcribeAudio against the gateway simulator, in both shapes: OpenAI's multipart (SRT with its timings, a stream
// of deltas) and OpenRouter's JSON with base64 audio (its reported cost), with the request log as the witness.
import * as assert from 'node:assert/strict';
import { startSimulator, type Simulator } from '../../simulator';
import { encodeWav, SAMPLE_RATE } from '../../simulator/wav';
import { useClients } from './helpers/clients';

const WAV = encodeWav(new Float32Array(Math.round(2.5 * SAMPLE_RATE)));
const base = { model: 'model-transcribe-1.0', audio: new Uint8Array(WAV), fileName: 'talk.wav', seconds: 2.5 } as const;

describe('gateway: transcription against the simulator', function () {
  this.timeout(20_000);
  let sim: Simulator;
  const { makeClient } = useClients(() => ({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0 }));

  before(async () => {
    sim = await startSimulator();
  });
  after(() => sim.close());
  beforeEach(() => sim.clearLog());

  it('sends the multipart form and keeps the SRT timings', async () => {
    const result = await makeClient().transcribeAudio({ ...base, format: 'srt', dialect: 'openai' });
    assert.equal(result.timed, true);
    assert.match(result.text, /^1\n00:00:00,000 --> 00:00:01,000\nSecond 1\.\n/);
    assert.match(result.text, /3\n00:00:02,000 --> 00:00:02,500\nSecond 3\./);
  });

  it('streams plain text as deltas, each handed on, and reads the usage of the done event', async () => {
    const pieces: string[] = [];
    const result = await makeClient().transcribeAudio({ ...base, format: 'text', dialect: 'openai', stream: true }, { onDelta: (p) => pieces.push(p) });
    assert.equal(result.streamed, true);
    assert.equal(result.text, 'Second 1. Second 2. Second 3.');
    assert.ok(pieces.length >= 3, pieces.join('|'));
    assert.deepEqual(result.usage, { seconds: 2.5 });
  });

  it("sends OpenRouter's JSON with base64 audio and reads its cost", async () => {
    const result = await makeClient().transcribeAudio({ ...base, format: 'text', dialect: 'openrouter', stream: true });
    assert.equal(result.text, 'Second 1. Second 2. Second 3.');
    assert.deepEqual(result.usage, { seconds: 2.5, cost: 0.00025 });
    const sent = sim.log.find((e) => e.path === '/v1/audio/transcriptions')!.body as { input_audio: { format: string } };
    assert.equal(sent.input_audio.format, 'wav');
  });

  it('refuses a file that is not audio with the gateway message', async () => {
    await assert.rejects(makeClient().transcribeAudio({ ...base, audio: new Uint8Array(Buffer.from('hello')), format: 'text', dialect: 'openai' }), /not audio/);
  });
});
