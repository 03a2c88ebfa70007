// Transcribe Audio File's checks before anything is sent: the argument, the file's kind and size (over the limit:
// said, nothing sent), the WAV length, the model and the profile's dialect.
import { execFileSync } from 'node:child_process';
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAudioFile, transcribeAskOf, transcribeFile, transcriptionDialectOf, transcriptionModel, wavSeconds } from '../../../src/media/core/transcription';
import type { TranscriptionRequest } from '../../../src/gateway/types';
import { encodeWav, SAMPLE_RATE } from '../../simulator/wav';
import type { Model } from '../../../src/gateway/types';
import { toCatalogModel } from '../../../src/models/core/modelListing';

describe('media: transcription', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mg-transcribe-'));
  const wav = join(dir, 'talk.wav');
  writeFileSync(wav, encodeWav(new Float32Array(3 * SAMPLE_RATE)));

  it('reads the argument strictly', () => {
    assert.deepEqual(transcribeAskOf({ path: '/a.wav', format: 'srt', language: 'en' }), { path: '/a.wav', format: 'srt', language: 'en' });
    assert.throws(() => transcribeAskOf({ path: '/a.wav', format: 'docx' }), /format is one of text, srt, vtt/);
    assert.throws(() => transcribeAskOf({ path: '/a.wav', colour: 1 }), /Unknown field colour/);
    assert.throws(() => transcribeAskOf({}), /path/);
    assert.throws(() => transcribeAskOf({ path: '/a.wav', language: 'english please' }), /ISO-639/);
  });

  it('reads the length of a WAV file from its header, and nothing from other bytes', () => {
    assert.equal(wavSeconds(encodeWav(new Float32Array(SAMPLE_RATE / 2))), 0.5);
    assert.equal(wavSeconds(Buffer.from('not a wav file at all')), undefined);
    const lying = encodeWav(new Float32Array(10));
    lying.writeUInt32LE(0xffffffff, 40);
    assert.ok(wavSeconds(lying)! < 0.01, 'a data size past the file is cut to the file');
  });

  it('refuses a file over the limit before sending, saying the limit, and a file of another kind', async () => {
    await assert.rejects(readAudioFile(wav, 1000), /Nothing was sent: talk\.wav is .* over the 1000 B one transcription takes/);
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello');
    await assert.rejects(readAudioFile(text), /not an audio or video file/);
    assert.equal((await readAudioFile(wav)).bytes.length, 44 + 3 * SAMPLE_RATE * 2);
  });

  it('refuses a FIFO named like audio at once, never waiting for a writer', async function () {
    if (process.platform === 'win32') this.skip();
    const fifo = join(dir, 'pipe.wav');
    execFileSync('mkfifo', [fifo]);
    await assert.rejects(readAudioFile(fifo), /pipe\.wav is a named pipe.*not a regular file/);
  });

  it("speaks OpenRouter's shape only where the profile's dialect (or, for auto, the host) says so", () => {
    assert.equal(transcriptionDialectOf('openrouter', 'http://127.0.0.1:9'), 'openrouter');
    assert.equal(transcriptionDialectOf('auto', 'https://openrouter.ai'), 'openrouter');
    assert.equal(transcriptionDialectOf(undefined, 'https://openrouter.ai'), 'openrouter');
    assert.equal(transcriptionDialectOf('openai', 'https://openrouter.ai'), 'openai');
    assert.equal(transcriptionDialectOf(undefined, 'https://litellm.example'), 'openai');
  });

  it('takes the model asked for, else the first listed model whose deciding field says it transcribes, else says how to give one', async () => {
    const models = (entries: Model[]) => ({ load: async () => ({ models: entries.map((m) => toCatalogModel(m)) }) as never });
    const named = (...ids: string[]) => ids.map((id) => ({ id, object: 'model' }));
    assert.equal(await transcriptionModel({ models: models([]) }, ' m ', undefined), 'm');
    assert.equal(await transcriptionModel({ models: models(named('chat-1', 'gpt-4o-transcribe')) }, undefined), 'gpt-4o-transcribe');
    // A chat model that also hears audio is not a transcription model; OpenRouter's architecture says which is.
    const hears = { id: 'openai/gpt-4o-audio-preview', object: 'model', architecture: { input_modalities: ['text', 'audio'], output_modalities: ['text'] } };
    const transcriber = { id: 'acme/scribe', object: 'model', architecture: { input_modalities: ['audio'], output_modalities: ['text'] } };
    assert.equal(await transcriptionModel({ models: models([hears, transcriber]) }, undefined), 'acme/scribe');
    // LiteLLM's mode and the endpoints list name one whose id does not.
    assert.equal(await transcriptionModel({ models: models([{ id: 'house-ears', object: 'model', mode: 'audio_transcription' }]) }, undefined), 'house-ears');
    assert.equal(await transcriptionModel({ models: models([{ id: 'ears-2', object: 'model', supported_endpoints: ['/v1/audio/transcriptions'] }]) }, undefined), 'ears-2');
    // An id that names transcription is not believed over a field that says it chats.
    await assert.rejects(transcriptionModel({ models: models([{ id: 'whisper-chat', object: 'model', mode: 'chat' }]) }, undefined), /lists no transcription model/);
    await assert.rejects(transcriptionModel({ models: models(named('chat-1', 'tts-1')) }, undefined), /lists no transcription model/);
  });

  it("sends the file with its length, in the profile's dialect, streamed for plain text", async () => {
    const sent: TranscriptionRequest[] = [];
    const api = { transcribeAudio: async (request: TranscriptionRequest) => (sent.push(request), { text: 'hi', timed: false, streamed: false }) };
    const deps = {
      connection: { origin: 'http://gw', access: async () => ({ ok: true, api, origin: 'http://gw' }) as never, resultFetchOptions: async () => ({}) },
      models: { load: async () => undefined },
      dialectSetting: () => 'openrouter' as const,
    };
    const result = await transcribeFile(deps, { path: wav, model: 'whisper-1' });
    assert.deepEqual([result.text, result.model], ['hi', 'whisper-1']);
    assert.deepEqual([sent[0]!.dialect, sent[0]!.format, sent[0]!.stream, sent[0]!.seconds, sent[0]!.fileName], ['openrouter', 'text', true, 3, 'talk.wav']);
  });
});
