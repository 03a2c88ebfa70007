// /transcribe in the chat, over a real ChatController and ChatContext: the attached audio files are transcribed
// through the media feature's one seam (MediaApi.transcribe) under the chat's profile, and each transcript goes into
// the context of the next message; an audio file never goes to the chat model itself.
import * as assert from 'node:assert/strict';
import { ChatContext } from '../../../../src/chat/core/chatContext';
import { ChatMediaHub, type ChatMediaPorts } from '../../../../src/chat/core/hub/mediaHub';
import type { AudioAttachment, TextAttachment } from '../../../../src/chatProtocol/attachments';
import type { MediaCall, TranscribeAsk } from '../../../../src/media/core/api';
import { settle } from '../../../util/fakeClock';
import { createHarness } from '../harness';

const audio = (name: string): AudioAttachment => ({ kind: 'audio', id: `a-${name}`, name, path: `/ws/${name}`, bytes: 48_000 });

function setup(fail?: string) {
  const h = createHarness();
  const asked: Array<{ ask: TranscribeAsk; surface: string; profile?: string }> = [];
  const warnings: string[] = [];
  const ports = {
    media: {
      transcribe: async (ask: TranscribeAsk, call: MediaCall) => {
        asked.push({ ask, surface: call.surface, profile: call.profile });
        if (fail) throw new Error(fail);
        return { text: `Second 1. Second 2. (${ask.path})`, model: 'model-transcribe-1.0', timed: false };
      },
    },
    videos: { onDidChange: () => ({ dispose() {} }), job: () => undefined },
  } as unknown as ChatMediaPorts;
  let n = 0;
  const context = new ChatContext(h.controller, {
    sources: { collect: async () => [], fromUris: async () => [], warn: (m) => warnings.push(m) },
    windowFor: () => ({ tokens: 100_000, source: 'setting' }),
    newId: () => `c${++n}`,
  });
  const transcripts = { takeAudio: () => context.takeAudio(), addTranscript: (name: string, text: string) => context.addTranscript(name, text), restoreAudio: (a: AudioAttachment) => context.restoreAudio(a), warn: (m: string) => warnings.push(m) };
  const hub = new ChatMediaHub({ controller: h.controller, ports, clock: h.clock, newId: () => `m${++n}`, log: { info: () => undefined, warn: () => undefined, error: () => undefined } as never, checkLink: async () => ({ ok: true }) as never, transcripts });
  return { h, asked, warnings, context, hub };
}

describe('/transcribe in the chat', () => {
  it("puts the transcript of each attached audio file into the context of the next message, asked under the chat's profile as chat-transcription", async () => {
    const { h, asked, context, hub } = setup();
    await h.controller.updateSettings({ ...h.session.settings, profile: 'p-work' });
    context.tray.add(audio('talk.wav'));
    context.tray.add(audio('memo.mp3'));
    assert.equal(hub.handleSend('/transcribe'), true);
    await settle();
    assert.deepEqual(asked, [
      { ask: { path: '/ws/talk.wav' }, surface: 'chat-transcription', profile: 'p-work' },
      { ask: { path: '/ws/memo.mp3' }, surface: 'chat-transcription', profile: 'p-work' },
    ]);
    assert.deepEqual(context.state.chips.map((c) => c.label), ['talk.wav (transcript)', 'memo.mp3 (transcript)']);
    assert.equal(h.gateway.calls.length, 0, 'the chat model is not asked');
    assert.equal(context.send('What is said?'), true);
    await settle();
    const user = h.session.turns.find((t) => t.role === 'user');
    assert.ok(user?.role === 'user');
    assert.deepEqual((user.attachments as TextAttachment[]).map((a) => a.text), ['Second 1. Second 2. (/ws/talk.wav)', 'Second 1. Second 2. (/ws/memo.mp3)'], 'the transcripts go with the message');
  });

  it('holds back a message while an audio file is attached, saying to /transcribe it', () => {
    const { h, warnings, context } = setup();
    context.tray.add(audio('talk.wav'));
    assert.equal(context.send('hello'), false);
    assert.match(warnings[0], /an audio file is attached\. Type \/transcribe/);
    assert.equal(h.session.turns.length, 0);
  });

  it('says what to do with no audio attached, and keeps a file that failed attached with the reason', async () => {
    const none = setup();
    none.hub.handleSend('/transcribe');
    await settle();
    assert.match(none.warnings[0], /^Attach an audio file first/);
    assert.equal(none.asked.length, 0);

    const failing = setup('The gateway lists no transcription model.');
    failing.context.tray.add(audio('talk.wav'));
    failing.hub.handleSend('/transcribe');
    await settle();
    assert.deepEqual(failing.context.state.chips.map((c) => [c.kind, c.label]), [['audio', 'talk.wav']]);
    assert.match(failing.warnings[0], /^talk\.wav was not transcribed: The gateway lists no transcription model\./);
  });
});
