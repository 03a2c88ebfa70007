// The transcription wire (both dialects' request shapes) and the reading of every answer shape, as pure functions.
import * as assert from 'node:assert/strict';
import { MAX_TRANSCRIPT_CHARS, TranscriptStream, transcriptionBody, transcriptionUsageOf, transcriptOf } from '../../../src/gateway/transcription';
import type { TranscriptionRequest } from '../../../src/gateway/types';

const AUDIO = new Uint8Array([82, 73, 70, 70, 0, 1, 2, 3]);
const base: TranscriptionRequest = { model: 'gpt-4o-transcribe', audio: AUDIO, fileName: 'talk.WAV', format: 'srt', dialect: 'openai', language: 'en' };

describe('transcription wire', () => {
  it("sends OpenAI's multipart form with the file under its own name, the format and the language", () => {
    const wire = transcriptionBody(base, 'BOUNDARY');
    assert.equal(wire.contentType, 'multipart/form-data; boundary=BOUNDARY');
    const text = (wire.body as Buffer).toString('latin1');
    assert.match(text, /name="model"\r\n\r\ngpt-4o-transcribe\r\n/);
    assert.match(text, /name="response_format"\r\n\r\nsrt\r\n/);
    assert.match(text, /name="language"\r\n\r\nen\r\n/);
    assert.match(text, /name="file"; filename="talk.WAV"/);
    assert.ok(!text.includes('name="stream"'), 'timed formats are never streamed');
    assert.ok((wire.body as Buffer).includes(Buffer.from(AUDIO)));
    assert.ok(text.endsWith('\r\n--BOUNDARY--\r\n'));
  });

  it('asks plain text as JSON, streamed when asked, and keeps quotes and line breaks out of the file name', () => {
    const wire = transcriptionBody({ ...base, format: 'text', stream: true, fileName: 'dir/a"b\r\nc.mp3' }, 'B');
    const text = (wire.body as Buffer).toString('latin1');
    assert.match(text, /name="response_format"\r\n\r\njson\r\n/);
    assert.match(text, /name="stream"\r\n\r\ntrue\r\n/);
    assert.match(text, /filename="a_b__c.mp3"/);
    assert.match(wire.accept, /text\/event-stream/);
  });

  it("sends OpenRouter's JSON with the audio in base64 and its format from the extension", () => {
    const wire = transcriptionBody({ ...base, dialect: 'openrouter', stream: true });
    assert.equal(wire.contentType, 'application/json');
    assert.deepEqual(JSON.parse(wire.body as string), { model: 'gpt-4o-transcribe', input_audio: { data: Buffer.from(AUDIO).toString('base64'), format: 'wav' }, language: 'en' });
  });
});

describe('transcription answers', () => {
  it('reads JSON text with usage in every reported form, and SRT kept with its timings', () => {
    const json = transcriptOf(Buffer.from(JSON.stringify({ text: 'hi', usage: { type: 'duration', seconds: 3.5 } })), 'application/json', { format: 'text' });
    assert.deepEqual(json, { text: 'hi', timed: false, streamed: false, usage: { seconds: 3.5 } });
    const tokens = transcriptOf(Buffer.from(JSON.stringify({ text: 'hi', usage: { type: 'tokens', input_tokens: 14, output_tokens: 2, total_tokens: 16 } })), 'application/json', { format: 'text' });
    assert.deepEqual((tokens as { usage: unknown }).usage, { inputTokens: 14, outputTokens: 2, totalTokens: 16 });
    assert.deepEqual(transcriptionUsageOf({ cost: 0.01, seconds: -1, tokens: 'x' }), { cost: 0.01 });
    const srt = '1\n00:00:00,000 --> 00:00:01,500\nhello\n';
    assert.deepEqual(transcriptOf(Buffer.from(srt), 'text/plain', { format: 'srt' }), { text: srt, timed: true, streamed: false });
  });

  it('says when a timed format came back as plain JSON text, and reads an error in a 200', () => {
    const plain = transcriptOf(Buffer.from('{"text":"no timings"}'), 'application/json', { format: 'vtt' });
    assert.equal((plain as { timed: boolean }).timed, false);
    assert.deepEqual(transcriptOf(Buffer.from('{"error":{"message":"bad audio"}}'), 'application/json', { format: 'text' }), { error: { message: 'bad audio' } });
    assert.ok('problem' in transcriptOf(Buffer.from('{"words":[]}'), 'application/json', { format: 'text' }));
    assert.ok('problem' in transcriptOf(Buffer.from('{not json'), 'application/json', { format: 'text' }));
  });

  it('assembles transcript.text.delta events, hands each on, and takes the done text and usage', () => {
    const pieces: string[] = [];
    const stream = new TranscriptStream((piece) => pieces.push(piece));
    assert.equal(stream.push(JSON.stringify({ type: 'transcript.text.delta', delta: 'Hel' })), true);
    stream.push('not json');
    stream.push(JSON.stringify({ type: 'transcript.text.delta', delta: 'lo' }));
    assert.equal(stream.partial, 'Hello');
    assert.equal(stream.push(JSON.stringify({ type: 'transcript.text.done', text: 'Hello.', usage: { type: 'tokens', input_tokens: 5, output_tokens: 2 } })), false);
    assert.deepEqual(pieces, ['Hel', 'lo']);
    assert.deepEqual(stream.result(), { text: 'Hello.', timed: false, streamed: true, usage: { inputTokens: 5, outputTokens: 2 } });
  });

  it('ends on an error event, and caps a transcript that never ends', () => {
    const failing = new TranscriptStream();
    failing.push(JSON.stringify({ type: 'error', error: { message: 'upstream' } }));
    assert.deepEqual(failing.error, { message: 'upstream' });
    assert.equal(failing.result(), undefined);
    const long = new TranscriptStream();
    const piece = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 6; i++) long.push(JSON.stringify({ type: 'transcript.text.delta', delta: piece }));
    assert.equal(long.partial.length, MAX_TRANSCRIPT_CHARS);
  });
});
