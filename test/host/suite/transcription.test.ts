import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension';
import { startSimulator, type Simulator } from '../../simulator';
import { encodeWav, SAMPLE_RATE } from '../../simulator/wav';
import { connectTo, disconnect, extensionApi } from '../helpers';

describe('transcription', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: ModelGatewayApi;
  const wav = () => path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'transcribe-me.wav');

  before(async () => {
    sim = await startSimulator();
    api = await extensionApi();
    await connectTo(api, sim);
    writeFileSync(wav(), encodeWav(new Float32Array(Math.round(2.5 * SAMPLE_RATE))));
  });

  after(async () => {
    rmSync(wav(), { force: true });
    // The transcripts are unsaved untitled editors: reverted, so closing asks nothing.
    for (let i = 0; i < 5 && vscode.window.activeTextEditor?.document.isUntitled; i++) await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await disconnect();
    await sim.close();
  });

  it('Transcribe Audio File turns a WAV file into SRT with its timings, in an editor', async () => {
    const result = await vscode.commands.executeCommand<{ text: string } | undefined>('modelGateway.transcribeAudio', { path: wav(), model: 'model-transcribe-1.0', format: 'srt' });
    assert.ok(result, 'the command resolves with the transcript');
    assert.match(result.text, /^1\n00:00:00,000 --> 00:00:01,000\nSecond 1\.\n/);
    assert.match(result.text, /3\n00:00:02,000 --> 00:00:02,500\nSecond 3\./);
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor?.document.isUntitled, 'the transcript opens in an untitled editor');
    assert.equal(editor.document.getText(), result.text);
    const sent = sim.log.filter((e) => e.method === 'POST' && e.path === '/v1/audio/transcriptions');
    assert.equal(sent.length, 1);
  });

  it('streams plain text into the editor', async () => {
    const result = await vscode.commands.executeCommand<{ text: string } | undefined>('modelGateway.transcribeAudio', { path: wav(), model: 'model-transcribe-1.0' });
    assert.equal(result?.text, 'Second 1. Second 2. Second 3.');
    assert.equal(vscode.window.activeTextEditor?.document.getText(), result.text);
  });
});
