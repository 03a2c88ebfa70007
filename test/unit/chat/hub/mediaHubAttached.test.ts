// /image and /video with an image attached in the chat: /image edits that image (MediaApi.editImage, the result a new
// kept media item) instead of generating; /video sends it as the job's first frame. The image is taken from the
// tray (other attachments stay); Regenerate sends it again; without an image both generate from the prompt.
import * as assert from 'node:assert/strict';
import { ChatMediaHub, type ChatMediaPorts } from '../../../../src/chat/core/hub/mediaHub';
import { ContextTray } from '../../../../src/chat/core/context/contextTray';
import type { EditImageAsk, KeptMedia, MediaCall } from '../../../../src/media/core/api';
import type { FirstFrame, VideoJob } from '../../../../src/videos/core/api';
import type { Attachment } from '../../../../src/chatProtocol/attachments';
import type { MediaTurn } from '../../../../src/chatProtocol/session';
import { settle } from '../../../util/fakeClock';
import { createHarness } from '../harness';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const IMAGE: Attachment = { kind: 'image', id: 'img1', name: 'logo.png', mimeType: 'image/png', data: PNG.toString('base64') };
const TEXT: Attachment = { kind: 'text', id: 'txt1', source: 'file', path: 'a.ts', language: 'typescript', startLine: 1, endLine: 1, totalLines: 1, text: 'x' };

function setup() {
  const h = createHarness();
  const asked: Array<{ what: string; prompt: string; image?: Uint8Array; frame?: FirstFrame }> = [];
  const kept = (n: number): KeptMedia => ({ entryId: `mentry00${n}`, fileName: `mentry00${n}-0.png`, contentType: 'image/png', model: 'model-image-1.0' });
  const ports = {
    media: {
      filesFolder: '/store/files',
      generateImage: async (ask: { prompt: string }) => (asked.push({ what: 'generate', prompt: ask.prompt }), kept(asked.length)),
      editImage: async (ask: EditImageAsk, _call: MediaCall) => (asked.push({ what: 'edit', prompt: ask.prompt, image: ask.image?.data }), kept(asked.length)),
      synthesizeSpeech: async () => kept(0),
      keptFile: () => undefined,
      save: async () => undefined,
    },
    videos: {
      keptFolder: '/store/video-results',
      submit: async (ask: { prompt: string; firstFrame?: FirstFrame }): Promise<VideoJob> => {
        asked.push({ what: 'video', prompt: ask.prompt, ...(ask.firstFrame && { frame: ask.firstFrame }) });
        return { key: `job${asked.length}`, model: 'model-video', state: 'pending', detail: 'queued' };
      },
      job: () => undefined,
      onDidChange: () => ({ dispose() {} }),
      reveal: async () => undefined,
      runningJobs: () => 0,
      jobsReady: async () => undefined,
      onDidChangeJobs: () => ({ dispose() {} }),
      dialect: async () => ({ dialect: 'spec' as const, setting: 'auto' as const, reason: 'a test double', evidence: [], settled: true }),
    },
  } as unknown as ChatMediaPorts;
  let n = 0;
  const hub = new ChatMediaHub({ controller: h.controller, ports, clock: h.clock, newId: () => `m${++n}`, log: { info: () => undefined, warn: () => undefined, error: () => undefined } as never, checkLink: async () => ({ ok: true }) as never });
  const tray = new ContextTray();
  return { h, hub, tray, asked };
}

const media = (turns: readonly { role: string }[]) => turns.filter((t): t is MediaTurn => t.role === 'media');

describe('ChatMediaHub: an image attached to /image or /video', () => {
  it('/image with an attached image edits it: the attached bytes go to editImage, the result is a new kept item, the text attachment stays', async () => {
    const { h, hub, tray, asked } = setup();
    tray.add(TEXT);
    tray.add(IMAGE);
    assert.equal(hub.handleSend('/image make it blue', tray), true);
    await settle();
    assert.equal(asked.length, 1);
    assert.equal(asked[0].what, 'edit');
    assert.equal(asked[0].prompt, 'make it blue');
    assert.deepEqual(Buffer.from(asked[0].image!), PNG);
    const [turn] = media(h.session.turns);
    assert.equal(turn.state, 'complete');
    assert.equal(turn.entryId, 'mentry001');
    assert.match(turn.content, /edits logo\.png/);
    assert.deepEqual(tray.attachments.map((a) => a.id), ['txt1'], 'the image was taken; the text stays for the next message');

    await hub.action(turn.id, 'regenerate');
    await settle();
    assert.equal(asked[1].what, 'edit', 'Regenerate edits the same image again');
    assert.deepEqual(Buffer.from(asked[1].image!), PNG);
  });

  it('/video with an attached image sends it as the first frame', async () => {
    const { hub, tray, asked } = setup();
    tray.add(IMAGE);
    hub.handleSend('/video the logo spins', tray);
    await settle();
    assert.equal(asked[0].what, 'video');
    assert.ok(asked[0].frame && 'data' in asked[0].frame);
    assert.deepEqual(Buffer.from((asked[0].frame as { data: Uint8Array }).data), PNG);
    assert.equal(tray.attachments.length, 0);
  });

  it('without an image attached, /image generates and /video has no first frame; /speak leaves the image alone', async () => {
    const { hub, tray, asked } = setup();
    tray.add(TEXT);
    hub.handleSend('/image a fox', tray);
    hub.handleSend('/video a fox', tray);
    await settle();
    assert.deepEqual(asked.map((a) => [a.what, a.frame]), [['generate', undefined], ['video', undefined]]);
    tray.add(IMAGE);
    hub.handleSend('/speak hello', tray);
    await settle();
    assert.equal(tray.attachments.length, 2, '/speak takes nothing');
  });
});
