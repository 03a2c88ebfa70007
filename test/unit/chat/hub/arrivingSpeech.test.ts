// A /speak turn's audio sent to the chat page while it arrives: the protocol's two messages (checked as every other
// the page takes), and the pieces the hub makes of what the gateway sends (bounded, in order, streamable types only).
import * as assert from 'node:assert/strict';
import { cleanHostMessage, parseHostMessage, type HostMessage, type MediaAudioMessage } from '../../../../src/chatProtocol/messages';
import { MAX_PIECE_BYTES } from '../../../../src/chatProtocol/audioPieces';
import { ArrivingSpeech } from '../../../../src/chat/core/hub/arrivingSpeech';
import { ChatWebviewBridge, type ChatWorkbench } from '../../../../src/chat/core/webviewBridge';
import { createHarness } from '../harness';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const piece = (fields: Record<string, unknown> = {}) => ({ type: 'mediaAudio', turnId: 'm1', contentType: 'audio/mpeg', at: 0, data: 'SUQzBA==', ...fields });

describe('chat protocol: a /speak turn\'s audio as it arrives', () => {
  it('the page takes a piece of a streamable type at an offset, and the end', () => {
    const atLimit = b64(new Uint8Array(MAX_PIECE_BYTES));
    for (const message of [piece(), piece({ contentType: 'audio/aac', at: 49152, data: atLimit }), piece({ contentType: 'audio/webm' }), { type: 'mediaAudioEnd', turnId: 'm1' }]) {
      const parsed = parseHostMessage(message);
      assert.ok(parsed.ok, JSON.stringify(message).slice(0, 80));
      assert.deepEqual(parsed.message, message);
    }
  });

  it('refuses a piece that is not base64 within the bound, a type MSE cannot take, a bad offset or turn id, and extra fields', () => {
    const bad = [
      piece({ data: '' }),
      piece({ data: 'SUQz BA=' }),
      piece({ data: 'SU*zBA==' }),
      piece({ data: 'SUQ=zBA=' }),
      piece({ data: b64(new Uint8Array(MAX_PIECE_BYTES + 3)) }),
      piece({ contentType: 'audio/wav' }),
      piece({ contentType: 'text/html' }),
      piece({ at: -1 }),
      piece({ at: 1.5 }),
      piece({ at: '0' }),
      piece({ turnId: '../x' }),
      piece({ extra: 1 }),
      { type: 'mediaAudioEnd' },
      { type: 'mediaAudioEnd', turnId: 'm1', data: 'SUQzBA==' },
    ];
    for (const message of bad) assert.equal(parseHostMessage(message).ok, false, JSON.stringify(message).slice(0, 80));
    assert.equal(cleanHostMessage(piece({ contentType: 'audio/wav' }) as HostMessage), undefined, 'the host does not send what the page refuses');
  });
});

describe('ArrivingSpeech: the pieces the chat page is sent', () => {
  const collect = () => {
    const sent: MediaAudioMessage[] = [];
    return { sent, speech: new ArrivingSpeech('m1', (m) => sent.push(m)) };
  };
  const join = (sent: MediaAudioMessage[]) => Buffer.concat(sent.flatMap((m) => (m.type === 'mediaAudio' ? [Buffer.from(m.data, 'base64')] : [])));

  it('sends each piece in messages of at most MAX_PIECE_BYTES, with the offset of their first byte, then the end', () => {
    const { sent, speech } = collect();
    const audio = new Uint8Array(MAX_PIECE_BYTES * 2 + 10).map((_, i) => i % 251);
    speech.audio(audio.subarray(0, 100), 'audio/mpeg');
    speech.audio(audio.subarray(100), 'audio/mpeg');
    speech.end();
    assert.deepEqual(sent.map((m) => (m.type === 'mediaAudio' ? [m.at, Buffer.from(m.data, 'base64').length] : m.type)), [[0, 100], [100, MAX_PIECE_BYTES], [100 + MAX_PIECE_BYTES, MAX_PIECE_BYTES - 90], 'mediaAudioEnd']);
    assert.deepEqual(join(sent), Buffer.from(audio));
    for (const m of sent) assert.ok(parseHostMessage(m).ok, 'every message is one the page takes');
  });

  it('sends nothing for a type the page cannot stream (WAV), and stops at a change of type', () => {
    const wav = collect();
    wav.speech.audio(new Uint8Array([1, 2, 3]), 'audio/wav');
    wav.speech.end();
    assert.deepEqual(wav.sent, []);

    const changed = collect();
    changed.speech.audio(new Uint8Array([1, 2, 3]), 'audio/mpeg');
    changed.speech.audio(new Uint8Array([4, 5, 6]), 'audio/aac');
    changed.speech.audio(new Uint8Array([7]), 'audio/mpeg');
    changed.speech.end();
    assert.deepEqual(changed.sent.map((m) => m.type), ['mediaAudio', 'mediaAudioEnd'], 'what arrived plays to its end; the kept file has the rest');
  });

  it('says no end when nothing was sent, and nothing after its end', () => {
    const { sent, speech } = collect();
    speech.end();
    speech.audio(new Uint8Array([1]), 'audio/mpeg');
    speech.end();
    assert.deepEqual(sent, []);
  });
});

describe('ChatWebviewBridge: a /speak turn\'s audio', () => {
  it('is posted to a loaded, visible page only (a page that missed pieces waits for the kept file)', async () => {
    const h = createHarness();
    const posted: HostMessage[] = [];
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const bridge = new ChatWebviewBridge(h.controller, {} as ChatWorkbench, (m) => posted.push(m), () => ({ models: [], loading: false }), h.clock, log);
    const message = piece() as MediaAudioMessage;
    bridge.postAudio(message);
    assert.deepEqual(posted, [], 'not loaded yet');
    await bridge.handle({ type: 'ready' });
    posted.length = 0;
    bridge.postAudio(message);
    bridge.postAudio({ type: 'mediaAudioEnd', turnId: 'm1' });
    assert.deepEqual(posted, [message, { type: 'mediaAudioEnd', turnId: 'm1' }]);
    bridge.markNotLive();
    bridge.postAudio(message);
    assert.equal(posted.length, 2);
  });
});
