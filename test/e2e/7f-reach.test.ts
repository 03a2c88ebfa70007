// The commands the dialect and media work added, reached as a user reaches them: Add to Model Gateway Chat from the
// Explorer, Add Selection to Model Gateway Chat from the editor's context menu, Edit Image… and Transcribe Audio
// File… from the Explorer's context menu (the transcript of a WAV opens in an editor), and Cancel on Gateway from a
// running job's menu, which on a gateway whose dialect cannot cancel says so and sends nothing.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transcriptText } from '../simulator/transcription';
import { useE2E } from './harness/suite';
import { answerGenerateVideo, rowMenu, videoRow } from './harness/views';
import { until, WAIT_MS } from './harness/workbench';

// The smallest valid PNG (1×1) and a 2 s silent WAV: real files of their kind, written into the workspace.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
function silentWav(seconds: number, rate = 8000): Buffer {
  const data = Buffer.alloc(seconds * rate * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

describe('e2e 7f: the newer commands where a user finds them', function () {
  this.timeout(4 * WAIT_MS);
  const e = useE2E('reach', ['commands']);
  const explorerRow = (name: string) => e.wb.page.locator('.explorer-folders-view .monaco-list-row', { has: e.wb.page.locator('.label-name', { hasText: new RegExp(`^${name.replace('.', '\\.')}$`) }) }).first();
  const onFile = async (name: string, item: string) => {
    await e.wb.runCommand('View: Show Explorer');
    // The Explorer's file watcher lists a file written a moment ago.
    await explorerRow(name).waitFor({ timeout: WAIT_MS });
    await e.wb.menuItem(item, () => explorerRow(name).click({ button: 'right', timeout: 5000 }));
  };
  const ran = (id: string) => until(() => e.wb.commandRuns().has(id), `${id} to run`);

  before(() => {
    writeFileSync(join(e.s.paths.workspace, 'reach-logo.png'), PNG);
    writeFileSync(join(e.s.paths.workspace, 'reach-talk.wav'), silentWav(2));
  });

  it('adds a file to the chat from the Explorer, and the selection from the editor', async () => {
    await onFile('reach-logo.png', 'Add to Model Gateway Chat');
    await ran('modelGateway.addToChat');
    await e.wb.closeQuickInput().catch(() => undefined);
    await e.wb.runOnLine('hello.py', 'def greet', 'Add Selection to Model Gateway Chat');
    await ran('modelGateway.addSelectionToChat');
    await e.wb.closeQuickInput().catch(() => undefined);
  });

  it('starts Edit Image… from the Explorer, and Transcribe Audio File… on a WAV opens its transcript', async () => {
    await onFile('reach-logo.png', 'Edit Image…');
    await ran('modelGateway.editImage');
    // The command logs its start before it asks for the change (it checks the connection first): close its own
    // prompt, not whatever is open at the moment the log says it ran.
    await e.wb.quickInputTitled('Edit Image: reach-logo.png');
    await e.wb.closeQuickInput();
    const sent = () => e.s.sim.log.filter((entry) => entry.method === 'POST' && entry.path === '/v1/audio/transcriptions' && entry.status === 200).length;
    const before = sent();
    await onFile('reach-talk.wav', 'Transcribe Audio File…');
    await e.wb.pick('Plain text');
    // The simulator's words for two seconds of audio, streamed into an untitled editor. No model was named: the
    // extension took the transcription model the gateway lists (without one it would refuse before sending).
    await e.wb.editorLines(transcriptText(2, 'text')).waitFor({ timeout: WAIT_MS });
    // An untitled editor, named by its first line (its tab also says Untitled-N).
    await e.wb.page.locator('.tabs-container .tab.active', { hasText: /Untitled-\d+/ }).filter({ hasText: 'Second 1.' }).first().waitFor({ timeout: WAIT_MS });
    assert.equal(sent(), before + 1, 'one transcription request, answered');
    await e.wb.closeAllEditors();
    await e.wb.closeToasts();
  });

  it('says Cancel on Gateway cannot cancel on a gateway whose dialect has no way to, and the job runs on', async () => {
    const prompt = 'A paper boat on a pond, to cancel';
    e.s.sim.holdVideos();
    try {
      await e.wb.showVideoJobs();
      await e.wb.runCommand('Model Gateway: Generate Video…');
      await answerGenerateVideo(e.wb, prompt);
      const row = videoRow(e.wb, prompt).first();
      await row.waitFor({ timeout: WAIT_MS });
      await rowMenu(e.wb, row, 'Cancel on Gateway');
      // No confirmation: the spec dialect cannot cancel, so it says so at once.
      await e.wb.toast(/no way to cancel/).first().waitFor({ timeout: WAIT_MS });
      await ran('modelGateway.videos.cancelOnGateway');
    } finally {
      e.s.sim.releaseHeldVideos();
    }
    await e.wb.closeToasts();
  });
});
