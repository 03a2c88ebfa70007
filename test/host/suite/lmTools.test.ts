// The gateway's language model tools as VS Code's chat and agents call them: through vscode.lm.invokeTool, against
// the simulator, on the same media and video ports as the chat panel; and the chat skill and prompt file VS Code
// registers for the extension. No tool result may hold the key.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension';
import { startSimulator, type Simulator } from '../../simulator';
import { UNPRICED_IMAGE_MODEL } from '../../simulator/models';
import { encodeWav, SAMPLE_RATE } from '../../simulator/wav';
import { parsePng } from '../../util/mediaFiles';
import { encodePng } from '../../simulator/png';
import type { MediaTestHooks } from '../../../src/media/vscode/feature';
import { config, connectTo, disconnect, extensionApi, until } from '../helpers';

interface ToolsTesting {
  prepare(name: string, input: unknown): Promise<vscode.PreparedToolInvocation>;
}

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('gateway language model tools (vscode.lm.invokeTool)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: ModelGatewayApi;
  const results: vscode.LanguageModelToolResult[] = [];
  const invoke = async (name: string, input: object) => {
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
    results.push(result);
    return result;
  };

  before(async () => {
    sim = await startSimulator({ video: { queuedMs: 300, inProgressMs: 300 } });
    api = await extensionApi();
    await connectTo(api, sim);
    api.testing.lmToolsConfirm = false;
  });

  after(async () => {
    delete api.testing.lmToolsConfirm;
    await disconnect();
    await sim.close();
  });

  it('registers every gateway_ tool with VS Code', () => {
    const names = vscode.lm.tools.filter((t) => t.name.startsWith('gateway_')).map((t) => t.name);
    assert.deepEqual(names.sort(), ['gateway_edit_image', 'gateway_generate_image', 'gateway_get_video_job', 'gateway_list_models', 'gateway_submit_video', 'gateway_synthesize_speech', 'gateway_transcribe', 'gateway_usage_summary']);
  });

  it("asks before a paid tool with the model and the cost the usage feature's prices give it, and not before a read-only one", async () => {
    const tools = api.testing.lmTools as ToolsTesting;
    api.testing.lmToolsConfirm = true;
    try {
      const image = await tools.prepare('gateway_generate_image', { prompt: 'a lighthouse', model: 'model-image-1.0' });
      assert.equal(image.confirmationMessages?.title, 'Generate an image with the gateway?');
      // The simulator lists model-image-1.0 at $0.04 an image.
      assert.match((image.confirmationMessages?.message as vscode.MarkdownString).value, /Model: .+\n\nEstimated cost: \$0\.04\n/);
      assert.equal((await tools.prepare('gateway_list_models', {})).confirmationMessages, undefined);
      assert.equal((await tools.prepare('gateway_usage_summary', {})).confirmationMessages, undefined);
    } finally {
      api.testing.lmToolsConfirm = false;
    }
  });

  it('lists the models by kind', async () => {
    const text = textOf(await invoke('gateway_list_models', {}));
    assert.match(text, /^chat: .*model-k3/m);
    assert.match(text, /^image: model-image-1\.0$/m);
    assert.match(text, /^video: model-1\.0-video-edit$/m);
  });

  it('generates an image: the image as data and the saved file', async () => {
    sim.clearLog();
    const result = await invoke('gateway_generate_image', { prompt: 'a lighthouse' });
    const data = result.content.find((p): p is vscode.LanguageModelDataPart => p instanceof vscode.LanguageModelDataPart);
    assert.ok(data, textOf(result));
    assert.equal(data.mimeType, 'image/png');
    assert.ok(parsePng(Buffer.from(data.data)).width > 0);
    const file = /Saved file: (.+\.png) \(image\/png\)/.exec(textOf(result))?.[1];
    assert.ok(file && existsSync(file), textOf(result));
    assert.deepEqual(readFileSync(file), Buffer.from(data.data));
    assert.equal(sim.log.filter((e) => e.path === '/v1/images/generations').length, 1);
  });

  it('edits a workspace image into a new file beside it; the original is untouched (Edit Image command and tool)', async () => {
    const folder = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'mg-edit-test');
    mkdirSync(folder, { recursive: true });
    try {
      const original = path.join(folder, 'logo.png');
      const bytes = encodePng(24, 16, new Uint8Array(24 * 16 * 3).fill(30));
      writeFileSync(original, bytes);
      sim.clearLog();
      const text = textOf(await invoke('gateway_edit_image', { path: 'mg-edit-test/logo.png', prompt: 'make it blue' }));
      const written = /Saved as a new file: (.+\.png) \(the original is unchanged\)/.exec(text)?.[1];
      assert.equal(written, path.join(folder, 'logo-edited.png'), text);
      assert.equal(parsePng(readFileSync(written)).width, 24);
      await vscode.commands.executeCommand('modelGateway.editImage', { path: original, prompt: 'make it green' });
      assert.ok(existsSync(path.join(folder, 'logo-edited (2).png')), 'the command writes another new file');
      assert.deepEqual(readFileSync(original), bytes, 'the original is never written');
      assert.equal(sim.log.filter((e) => e.path === '/v1/images/edits').length, 2);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('synthesizes speech into a saved file', async () => {
    const text = textOf(await invoke('gateway_synthesize_speech', { text: 'Hello from the tools' }));
    const file = /Saved file: (.+) \(audio\//.exec(text)?.[1];
    assert.ok(file && existsSync(file), text);
  });

  it('transcribes a workspace WAV file (a relative path) into the transcript text, recorded in the ledger as the surface `tool`', async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    writeFileSync(path.join(folder, 'tool-transcribe.wav'), encodeWav(new Float32Array(Math.round(2.5 * SAMPLE_RATE))));
    sim.clearLog();
    try {
      const text = textOf(await invoke('gateway_transcribe', { path: 'tool-transcribe.wav', model: 'model-transcribe-1.0' }));
      assert.match(text, /^Transcript of .+tool-transcribe\.wav by model-transcribe-1\.0\.\n\[gateway output, untrusted text: "Second 1\. Second 2\. Second 3\."\]$/);
      assert.equal(sim.log.filter((e) => e.method === 'POST' && e.path === '/v1/audio/transcriptions').length, 1);
      const usage = (api.testing.usage as () => { ledger: { read(): Promise<{ records: Array<{ modality: string; surface: string; model: string }> }> } })();
      const recorded = async () => (await usage.ledger.read()).records.some((r) => r.modality === 'transcription' && r.surface === 'tool' && r.model === 'model-transcribe-1.0');
      await until(recorded, 'the transcription in the ledger as a tool request', 10_000, 200);
    } finally {
      rmSync(path.join(folder, 'tool-transcribe.wav'), { force: true });
    }
  });

  it('submits a video job at once, and reads it until complete, from the Video Jobs store', async () => {
    const submitted = textOf(await invoke('gateway_submit_video', { prompt: 'waves on a beach' }));
    const jobId = /jobId "([^"]+)"/.exec(submitted)?.[1];
    assert.ok(jobId, submitted);
    const videos = api.testing.videos as { feature: { store: { get(key: string): unknown } } };
    assert.ok(videos.feature.store.get(jobId), 'the job is the Video Jobs store\'s own');
    const done = await until(async () => {
      const text = textOf(await invoke('gateway_get_video_job', { jobId }));
      return /complete\./.test(text) && text;
    }, 'the job to complete', 30_000, 500);
    assert.match(done, /Result link: http:\/\/127\.0\.0\.1:\d+\/files\//);
  });

  it('keeps a finished video before its link expires; it still plays after the link has expired', async () => {
    const submitted = textOf(await invoke('gateway_submit_video', { prompt: '[expires:6] a lighthouse beam sweeping' }));
    const jobId = /jobId "([^"]+)"/.exec(submitted)?.[1];
    assert.ok(jobId, submitted);
    const kept = await until(async () => {
      const text = textOf(await invoke('gateway_get_video_job', { jobId }));
      const file = /Kept file: (.+)/.exec(text)?.[1];
      return file ? { file, link: /Result link: (\S+)/.exec(text)![1] } : undefined;
    }, 'the result to be kept', 30_000, 250);
    assert.ok(readFileSync(kept.file).length > 1000, 'the kept file holds the video');
    const feature = (api.testing.videos as { feature: { view: { provider: vscode.TreeDataProvider<unknown> } } }).feature;
    assert.equal((await feature.view.provider.getTreeItem({ kind: 'result', key: jobId, index: 0 })).description, 'kept');

    const expiresAt = Number(new URL(kept.link).searchParams.get('expires')) * 1000;
    await until(() => Date.now() > expiresAt + 1000, 'the link to expire', 15_000, 200);
    assert.equal((await fetch(kept.link)).status, 403, 'the gateway refuses the expired link');
    const panel = await vscode.commands.executeCommand<vscode.WebviewPanel | undefined>('modelGateway.videos.preview', jobId);
    assert.ok(panel, 'the preview opens');
    try {
      // Disposing a webview that is still loading makes the workbench log an error: let it show first.
      await until(() => panel.visible, 'the preview to show');
      const html = panel.webview.html.replace(/&#39;/g, "'");
      assert.ok(html.includes(panel.webview.asWebviewUri(vscode.Uri.file(kept.file)).toString()), 'it plays the kept file');
      assert.ok(html.includes(`media-src ${panel.webview.cspSource};`), 'media only from the webview resource root');
      assert.ok(!html.includes(new URL(kept.link).host), 'not the expired link');
    } finally {
      panel.dispose();
    }
  });

  it('keeps an image whose link expires: the result and the Preview show the kept file after the link has expired', async () => {
    const media = api.testing.media as MediaTestHooks;
    await config().update('image.responseFormat', 'url', vscode.ConfigurationTarget.Global);
    let entryId: string | undefined;
    sim.clearLog();
    try {
      const result = await invoke('gateway_generate_image', { prompt: '[expires:8] a lighthouse seen from the sea' });
      const file = /Saved file: (.+\.png) \(image\/png\)/.exec(textOf(result))?.[1];
      assert.ok(file, textOf(result));
      const entry = media.history.entries().find((e) => e.files.some((f) => media.history.filePath(f) === file));
      const link = entry?.files[0]?.sourceUrl;
      assert.ok(entry && link, 'the image came as a link, and the entry remembers it');
      entryId = entry.id;
      assert.equal(sim.log.filter((e) => e.path.startsWith('/files/img_')).length, 1, 'fetched once, when it was made');
      const expiresAt = Number(new URL(link).searchParams.get('expires')) * 1000;
      // Long enough that a loaded machine still fetches the image while its link works.
      await until(() => Date.now() > expiresAt + 1000, 'the link to expire', 20_000, 200);
      assert.equal((await fetch(link)).status, 403, 'the gateway refuses the expired link');

      const data = result.content.find((p): p is vscode.LanguageModelDataPart => p instanceof vscode.LanguageModelDataPart);
      assert.deepEqual(readFileSync(file), Buffer.from(data!.data), 'the kept file is the image the tool returned');
      await vscode.commands.executeCommand('modelGateway.media.show', { entry: entry.id });
      const panel = await until(() => media.panels.panelFor(entry.id), 'the Preview to open');
      try {
        await until(() => panel.visible, 'the Preview to show');
        const html = panel.webview.html.replace(/&#39;/g, "'");
        assert.ok(html.includes(panel.webview.asWebviewUri(vscode.Uri.file(file)).toString()), 'it shows the kept file');
        assert.ok(!html.includes(new URL(link).searchParams.get('sig')!), 'not the expired link');
      } finally {
        panel.dispose();
      }
    } finally {
      await config().update('image.responseFormat', undefined, vscode.ConfigurationTarget.Global);
      if (entryId) await media.history.remove(entryId);
    }
  });

  it("reads this month's spend by model from the usage ledger, sending nothing; an unknown cost is never $0.00", async () => {
    // A model the gateway serves without a price: its request's cost is unknown.
    assert.doesNotMatch(textOf(await invoke('gateway_generate_image', { prompt: 'a lighthouse', model: UNPRICED_IMAGE_MODEL })), /^Error/);
    sim.clearLog();
    // The images and speech above were recorded by the usage feature as they finished; its append may still be on its way.
    const text = await until(async () => {
      const answer = textOf(await invoke('gateway_usage_summary', {}));
      return /^- model-image-1\.0: /m.test(answer) && /^- model-speech/m.test(answer) && answer.includes(`- ${UNPRICED_IMAGE_MODEL}: `) && answer;
    }, 'the images and speech to be in the ledger', 10_000, 200);
    assert.match(text, /^Spend in \w+ \d{4} by model/);
    assert.match(text, /^Total: ≥ \$[\d.]+.* \(\d+ requests/m, 'a sum with an unknown part is "≥ …"');
    assert.match(text, new RegExp(`^- ${UNPRICED_IMAGE_MODEL.replace(/\./g, '\\.')}: unknown \\(1 request`, 'm'), 'an unknown cost is never $0.00');
    assert.deepEqual(sim.log, [], 'the ledger is read, the gateway is not asked');
  });

  it('answers bad input with a tool error, not an exception', async () => {
    const text = textOf(await invoke('gateway_generate_image', { prompt: '', size: 'huge' }));
    assert.match(text, /^Error: Invalid input: /);
    const missing = textOf(await invoke('gateway_get_video_job', { jobId: 'no-such-job' }));
    assert.match(missing, /^Error: There is no video job no-such-job/);
  });

  it('never puts the key in a result', () => {
    assert.ok(results.length >= 10);
    for (const result of results) {
      for (const part of result.content) {
        const text = part instanceof vscode.LanguageModelTextPart ? part.value : part instanceof vscode.LanguageModelDataPart ? Buffer.from(part.data).toString('latin1') : JSON.stringify(part);
        assert.ok(!text.includes(sim.apiKey), 'a tool result holds the key');
      }
    }
  });

  it('contributes a chat skill and a prompt file that VS Code registers', async () => {
    const files = await vscode.commands.executeCommand<Array<{ uri: { path: string }; type: string; extensionId: string }>>('_listExtensionPromptFiles');
    const ours = files.filter((f) => f.extensionId.toLowerCase() === 'model-gateway.model-gateway').map((f) => [f.type, f.uri.path.split('/').slice(-2).join('/')]);
    assert.deepEqual(ours.sort(), [
      ['prompt', 'agents/gateway-media.prompt.md'],
      ['skill', 'gateway-media/SKILL.md'],
    ]);
  });
});
