// Context and images in the chat panel, in the real VS Code against the simulator: attachments reach the request
// body the simulator logs, an overflowing message is held back until the user trims, and a pasted image goes out as
// an image_url part (refused by a model without vision, with a resend without it).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatPanelManager } from '../../../src/chat/vscode/chatPanelManager';
import type { ContextState } from '../../../src/chatProtocol/messages';
import type { ModelCatalog } from '../../../src/models/core/modelCatalog';
import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import { encodePng } from '../../simulator/png';
import { VISION_MODEL_CONTEXT } from '../../simulator/models';
import { config, extensionApi, until } from '../helpers';
import { PanelRecorder } from '../panelRecorder';
import { WorkspaceContextProvider } from '../../../src/chat/vscode/context/workspaceContextProvider';

interface ChatTesting {
  createManager(storageFolder: string): ChatPanelManager;
}

interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; image_url?: { url: string } }> }>;
}

class Recorder extends PanelRecorder {
  get context(): ContextState | undefined {
    return this.last('context')?.context;
  }
}

describe('chat context and images (issue 13)', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let chat: ChatTesting;
  let storage: string;
  let manager: ChatPanelManager;
  let folder: string;
  const chatRequests = () => sim.log.filter((e) => e.path === '/v1/chat/completions');
  const lastBody = () => chatRequests().at(-1)?.body as ChatBody;

  async function openChat(model = 'model-k3'): Promise<Recorder> {
    const recorder = new Recorder(await manager.newChat({ model }));
    await until(() => recorder.posted.some((m) => m.type === 'init'), 'the webview to load', 20_000);
    await until(() => recorder.context, 'the context state');
    return recorder;
  }

  before(async () => {
    sim = await startSimulator({ tokensPerSecond: 400 });
    const api = await extensionApi();
    chat = api.testing.chat as ChatTesting;
    await config().update('baseUrl', sim.baseUrl, vscode.ConfigurationTarget.Global);
    await until(() => api.connection.origin === sim.origin, 'the connection to follow the setting');
    await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
    folder = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'mg-context-test');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'sample.ts'), 'export const answer = 42;\nexport function double(x: number): number {\n  return x * 2;\n}\n');
    fs.writeFileSync(path.join(folder, 'big.ts'), Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i}; // a line of padding to make the file large`).join('\n'));
    fs.writeFileSync(path.join(folder, 'blob.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3]));
  });

  after(async () => {
    await vscode.commands.executeCommand('modelGateway.clearApiKey', { confirm: false });
    await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await config().update('chat.contextWindow', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(folder, { recursive: true, force: true });
    await sim.close();
  });

  beforeEach(async () => {
    storage = fs.mkdtempSync(path.join(os.tmpdir(), 'mg-context-host-'));
    manager = chat.createManager(storage);
    sim.clearLog();
  });

  afterEach(async () => {
    manager.dispose();
    await manager.flush();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(storage, { recursive: true, force: true });
  });

  it('attaches the active file and a file dropped from the Explorer; the simulator sees both as fenced blocks, and regenerate sends them again', async () => {
    const sample = vscode.Uri.file(path.join(folder, 'sample.ts'));
    await vscode.window.showTextDocument(sample);
    const recorder = await openChat();
    await recorder.send({ type: 'addContext', source: 'activeFile' });
    await recorder.send({ type: 'dropUris', uris: [vscode.Uri.file(path.join(folder, 'big.ts')).toString()] });
    // The binary file is refused (with a warning), never attached.
    await recorder.send({ type: 'dropUris', uris: [vscode.Uri.file(path.join(folder, 'blob.bin')).toString()] });
    const chips = recorder.context!.chips;
    assert.deepEqual(chips.map((c) => c.label), ['sample.ts', 'big.ts']);
    assert.ok(chips.every((c) => c.tokens > 0));
    assert.match(chips[0].detail, /mg-context-test\/sample\.ts, lines 1–4, typescript/);

    const mark = recorder.posted.length;
    await recorder.send({ type: 'send', requestId: 1, text: 'What does double do?' });
    assert.equal((await recorder.finish(mark)).status, 'complete');
    const content = lastBody().messages[0].content as string;
    assert.match(content, /^File `mg-context-test\/sample\.ts` \(lines 1–4, typescript\):\n\n```typescript\nexport const answer = 42;/);
    assert.match(content, /File `mg-context-test\/big\.ts` \(lines 1–400, typescript\):/);
    assert.ok(content.endsWith('\n\nWhat does double do?'));
    assert.equal(recorder.context!.chips.length, 0, 'the tray is empty after sending');
    const userTurn = recorder.posted.find((m) => m.type === 'turnAdded' && m.turn.role === 'user');
    assert.ok(userTurn?.type === 'turnAdded' && userTurn.turn.role === 'user');
    assert.deepEqual(userTurn.turn.attachments?.map((c) => c.label), ['sample.ts', 'big.ts'], 'the sent message shows its chips');

    const again = recorder.posted.length;
    await recorder.send({ type: 'regenerate' });
    await recorder.finish(again);
    assert.equal(chatRequests().length, 2);
    assert.equal(lastBody().messages[0].content, content, 'regenerate sends the same context');
  });

  it('holds back a message that would overflow the context window, and sends it once the largest attachment is trimmed', async () => {
    await config().update('chat.contextWindow', 1000, vscode.ConfigurationTarget.Global);
    // The earlier replies teach model-k3's characters per token (tokenRatios) as they are recorded: the figures this
    // test compares must not move between the trim and the send.
    await ((await extensionApi()).testing.models as ModelCatalog).tokens!().settled();
    try {
      const recorder = await openChat();
      await recorder.send({ type: 'dropUris', uris: [vscode.Uri.file(path.join(folder, 'big.ts')).toString()] });
      const state = recorder.context!;
      assert.equal(state.window, 1000);
      assert.equal(state.windowSource, 'setting');
      // The figures are characters ÷ 4; the host scales them by what model-k3's reported usage taught it (tokenRatios).
      const scale = state.tokenScale ?? 1;
      assert.ok((state.baseTokens + state.chips[0].tokens) * scale > 1000, 'the file is larger than the window');

      const mark = recorder.posted.length;
      await recorder.send({ type: 'send', requestId: 1, text: 'Summarise this file' });
      const back = recorder.posted.slice(mark).find((m) => m.type === 'reply');
      assert.deepEqual(back, { type: 'reply', requestId: 1, reply: { sent: false, why: 'heldBack' } }, 'the page is told it was held back (it gives the text back to the input)');
      assert.match(recorder.context!.warning, /Not sent: the message would overflow the context window of model-k3 \(≈[\d,]+ of 1,000 tokens\)/);
      assert.equal(chatRequests().length, 0, 'nothing reached the gateway');

      await recorder.send({ type: 'trimContext' });
      const trimmed = recorder.context!;
      assert.equal(trimmed.warning, '');
      assert.match(trimmed.chips[0].detail, /lines 1–\d+ \(trimmed from 400 lines\)/);
      assert.ok((trimmed.baseTokens + trimmed.chips[0].tokens) * (trimmed.tokenScale ?? 1) <= 1000, `${trimmed.baseTokens} + ${trimmed.chips[0].tokens} tokens at a scale of ${trimmed.tokenScale ?? 1} fit 1,000`);

      const sent = recorder.posted.length;
      await recorder.send({ type: 'send', requestId: 1, text: 'Summarise' });
      await recorder.finish(sent);
      assert.match(lastBody().messages[0].content as string, /File `mg-context-test\/big\.ts` \(lines 1–\d+, trimmed from 400 lines, typescript\)/);
    } finally {
      await config().update('chat.contextWindow', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('attaches lines N–M of a file: the editor used last is offered first, with its selection as the range; the simulator sees those lines', async () => {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(path.join(folder, 'sample.ts')));
    editor.selection = new vscode.Selection(1, 0, 2, 5);
    const recorder = await openChat();
    const sources = manager.contextSources;
    const questions = sources.linesQuestions;
    const offered: string[][] = [];
    const asked: vscode.InputBoxOptions[] = [];
    const answers = ['2-3', '399-'];
    sources.linesQuestions = {
      file: async (items) => {
        offered.push(items.map((i) => i.description ?? ''));
        return offered.length === 1 ? items[0] : items.find((i) => i.description?.endsWith('mg-context-test/big.ts'));
      },
      range: async (options) => (asked.push(options), answers.shift()),
    };
    try {
      await recorder.send({ type: 'addContext', source: 'lines' });
      assert.equal(offered[0][0], 'mg-context-test/sample.ts · the editor you used last');
      assert.equal(offered[0].filter((d) => d.includes('sample.ts')).length, 1, 'the active file is offered once');
      assert.equal(asked[0].value, '2-3', 'the selection is the range proposed');
      assert.equal(asked[0].validateInput?.('2-9'), 'The file has 5 lines.');
      await recorder.send({ type: 'addContext', source: 'lines' });
      assert.equal(asked[1].value, '1-400');
      const chips = recorder.context!.chips;
      assert.deepEqual(chips.map((c) => c.label), ['sample.ts:2-3', 'big.ts:399-400']);
      assert.equal(chips[0].detail, 'mg-context-test/sample.ts, lines 2–3, typescript');

      const mark = recorder.posted.length;
      await recorder.send({ type: 'send', requestId: 1, text: 'What do these lines do?' });
      await recorder.finish(mark);
      const content = lastBody().messages[0].content as string;
      assert.match(content, /^File `mg-context-test\/sample\.ts` \(lines 2–3, typescript\):\n\n```typescript\nexport function double\(x: number\): number \{\n {2}return x \* 2;\n```\n\n/);
      assert.match(content, /File `mg-context-test\/big\.ts` \(lines 399–400, typescript\):\n\n```typescript\nexport const value398 = 398;[^\n]*\nexport const value399 = 399;[^\n]*\n```\n\nWhat do these lines do\?$/);
    } finally {
      sources.linesQuestions = questions;
    }
  });

  it('attaches a .env file only on an explicit yes: the real modal is asked, and an unanswered or declined question attaches nothing', async () => {
    fs.writeFileSync(path.join(folder, '.env'), 'GATEWAY_KEY=sk-not-a-real-key\n');
    const env = vscode.Uri.file(path.join(folder, '.env')).toString();
    const sample = vscode.Uri.file(path.join(folder, 'sample.ts')).toString();
    const message = /^mg-context-test\/\.env looks like it holds secrets \(keys, passwords or tokens\)\. Attaching it sends its content to the gateway\.$/;
    // As far as the harness goes: VS Code refuses to show modal dialogs while extension tests run, and says what it
    // was asked to show. The question the extension asks goes that way.
    await assert.rejects(Promise.resolve(vscode.window.showWarningMessage('mg-context-test/.env looks like it holds secrets', { modal: true }, 'Attach Anyway')), /refused to show dialog in tests\. Contents: mg-context-test\/\.env looks like it holds secrets/);
    const recorder = await openChat();
    const sources = manager.contextSources;
    const modal = sources.askAttachSecrets;
    const asked: string[] = [];
    const answers: boolean[] = [];
    sources.askAttachSecrets = async (question) => {
      asked.push(question);
      const answer = await modal(question);
      answers.push(answer);
      return answer;
    };
    try {
      await recorder.send({ type: 'dropUris', uris: [env, sample] });
      assert.equal(asked.length, 1, 'asked about the .env file only');
      assert.match(asked[0], message);
      assert.deepEqual(answers, [false], 'the modal was not answered yes');
      assert.deepEqual(recorder.context!.chips.map((c) => c.label), ['sample.ts'], 'the other file is attached, the .env file is not');

      // The user closes the question (Escape): still nothing.
      sources.askAttachSecrets = async (question) => (asked.push(question), false);
      await recorder.send({ type: 'dropUris', uris: [env] });
      assert.deepEqual(recorder.context!.chips.map((c) => c.label), ['sample.ts']);

      // Attach Anyway: attached, and sent.
      sources.askAttachSecrets = async (question) => (asked.push(question), true);
      await recorder.send({ type: 'dropUris', uris: [env] });
      assert.deepEqual(recorder.context!.chips.map((c) => c.label), ['sample.ts', '.env']);
      assert.equal(asked.length, 3);
      const mark = recorder.posted.length;
      await recorder.send({ type: 'send', requestId: 1, text: 'Is this configuration complete?' });
      await recorder.finish(mark);
      assert.match(lastBody().messages[0].content as string, /File `mg-context-test\/\.env` \(line 1, [^)]*\):\n\n```[^\n]*\nGATEWAY_KEY=sk-not-a-real-key\n```/);
    } finally {
      sources.askAttachSecrets = modal;
    }
  });

  describe('consent and special files (issue 21)', () => {
    let outside: string;
    let asked: string[];
    let warnings: string[];
    let sources: WorkspaceContextProvider;
    let restore: () => void;

    /** Answers every consent question with `answer` (after `meanwhile`, as if the user took a moment), recording it. */
    function answerWith(answer: boolean, meanwhile: () => void = () => undefined): void {
      sources.askAttachSecrets = async (question) => {
        asked.push(question);
        meanwhile();
        return answer;
      };
    }

    beforeEach(() => {
      outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mg-outside-')));
      asked = [];
      warnings = [];
      sources = manager.contextSources;
      const { askAttachSecrets, warn } = sources;
      sources.warn = (message) => void warnings.push(message);
      restore = () => {
        sources.askAttachSecrets = askAttachSecrets;
        sources.warn = warn;
      };
    });

    afterEach(() => {
      restore();
      fs.rmSync(outside, { recursive: true, force: true });
      fs.rmSync(path.join(folder, 'docs'), { recursive: true, force: true });
    });

    it('a link with an innocent name to a key outside the workspace asks, naming the real path; declined, nothing is attached', async () => {
      const key = path.join(outside, 'id_ed25519');
      fs.writeFileSync(key, 'not really a key, but named like one\n');
      fs.mkdirSync(path.join(folder, 'docs'), { recursive: true });
      fs.symlinkSync(key, path.join(folder, 'docs', 'setup-notes.md'));
      const recorder = await openChat();
      answerWith(false);
      await recorder.send({ type: 'dropUris', uris: [vscode.Uri.file(path.join(folder, 'docs', 'setup-notes.md')).toString()] });
      assert.deepEqual(asked, [`mg-context-test/docs/setup-notes.md links to ${key}, outside the workspace. It looks like it holds secrets (keys, passwords or tokens). Attaching it sends its content to the gateway.`]);
      assert.equal(recorder.context!.chips.length, 0);
      // The real modal: VS Code refuses dialogs in tests, which is not a yes.
      restore();
      await recorder.send({ type: 'dropUris', uris: [vscode.Uri.file(path.join(folder, 'docs', 'setup-notes.md')).toString()] });
      assert.equal(recorder.context!.chips.length, 0);
    });

    it('Lines of a File… on a link out of the workspace asks the same question before reading; declined, no range is asked', async () => {
      const env = path.join(outside, '.env');
      fs.writeFileSync(env, 'TOKEN=1\n');
      fs.mkdirSync(path.join(folder, 'docs'), { recursive: true });
      fs.symlinkSync(env, path.join(folder, 'docs', 'settings.txt'));
      const recorder = await openChat();
      await until(async () => (await sources.listWorkspaceFiles()).some((f) => f.path.endsWith('docs/settings.txt')), 'the link to be listed');
      const questions = sources.linesQuestions;
      const ranges: string[] = [];
      sources.linesQuestions = {
        file: async (items) => items.find((i) => i.description?.endsWith('docs/settings.txt')),
        range: async (options) => (ranges.push(options.value ?? ''), '1'),
      };
      try {
        answerWith(false);
        await recorder.send({ type: 'addContext', source: 'lines' });
        assert.deepEqual(asked, [`mg-context-test/docs/settings.txt links to ${env}, outside the workspace. It looks like it holds secrets (keys, passwords or tokens). Attaching it sends its content to the gateway.`]);
        assert.deepEqual(ranges, [], 'the file was not read, so no range was offered');
        assert.equal(recorder.context!.chips.length, 0);
      } finally {
        sources.linesQuestions = questions;
      }
    });

    it('a link to /dev/zero is refused with a clear message, without reading it', async function () {
      if (!fs.existsSync('/dev/zero')) this.skip();
      fs.mkdirSync(path.join(folder, 'docs'), { recursive: true });
      fs.symlinkSync('/dev/zero', path.join(folder, 'docs', 'zero.txt'));
      const recorder = await openChat();
      answerWith(true);
      await recorder.send({ type: 'dropUris', uris: [vscode.Uri.file(path.join(folder, 'docs', 'zero.txt')).toString()] });
      assert.deepEqual(warnings, ['mg-context-test/docs/zero.txt (it links to /dev/zero) is a device, not a regular file; only files can be attached.']);
      assert.deepEqual(asked, [], 'nothing to ask about: it is refused first');
      assert.equal(recorder.context!.chips.length, 0);
    });

    it('a path the webview names outside the workspace is read only after a yes in the host dialog; declined, nothing is sent', async () => {
      const notes = path.join(outside, 'notes.txt');
      fs.writeFileSync(notes, 'written before the question\n');
      const recorder = await openChat();
      answerWith(false);
      await recorder.send({ type: 'dropUris', uris: [vscode.Uri.file(notes).toString()] });
      assert.deepEqual(asked, [`${notes} is outside the workspace. Attaching it sends its content to the gateway.`]);
      assert.equal(recorder.context!.chips.length, 0);
      const mark = recorder.posted.length;
      await recorder.send({ type: 'send', requestId: 1, text: 'Anything attached?' });
      await recorder.finish(mark);
      assert.deepEqual(lastBody().messages, [{ role: 'user', content: 'Anything attached?' }], 'the file never reached the gateway');

      // Yes: the file is read after the answer (what it holds when the user says yes is what is sent).
      answerWith(true, () => fs.writeFileSync(notes, 'written while the question was open\n'));
      await recorder.send({ type: 'dropUris', uris: [vscode.Uri.file(notes).toString()] });
      assert.deepEqual(recorder.context!.chips.map((c) => c.label), ['notes.txt']);
      const sent = recorder.posted.length;
      await recorder.send({ type: 'send', requestId: 1, text: 'And now?' });
      await recorder.finish(sent);
      const content = lastBody().messages.at(-1)!.content as string;
      assert.match(content, /written while the question was open/);
      assert.doesNotMatch(content, /written before the question/);
    });

    it('credential names and credential content ask; the question says which kind, never the secret', async () => {
      fs.mkdirSync(path.join(folder, 'docs', '.kube'), { recursive: true });
      fs.writeFileSync(path.join(folder, 'docs', '.kube', 'config'), 'apiVersion: v1\nkind: Config\n');
      fs.writeFileSync(path.join(folder, 'docs', 'deploy.ts'), 'export const key = "AKIAIOSFODNN7EXAMPLE";\n');
      fs.writeFileSync(path.join(folder, 'docs', 'plain.ts'), 'export const x = 1;\n');
      const recorder = await openChat();
      answerWith(false);
      const uris = ['.kube/config', 'deploy.ts', 'plain.ts'].map((name) => vscode.Uri.file(path.join(folder, 'docs', name)).toString());
      await recorder.send({ type: 'dropUris', uris });
      assert.deepEqual(asked, [
        'mg-context-test/docs/.kube/config looks like it holds secrets (keys, passwords or tokens). Attaching it sends its content to the gateway.',
        'mg-context-test/docs/deploy.ts contains what looks like an AWS access key. Attaching it sends its content to the gateway.',
      ]);
      assert.ok(asked.every((q) => !q.includes('AKIAIOSFODNN7EXAMPLE')));
      assert.deepEqual(recorder.context!.chips.map((c) => c.label), ['plain.ts']);
    });
  });

  it("takes the context window from the model list when the gateway gives it", async () => {
    const recorder = await openChat('model-5.2');
    await until(() => recorder.context?.windowSource === 'model', 'the window of model-5.2');
    assert.equal(recorder.context!.window, VISION_MODEL_CONTEXT);
  });

  it('sends a pasted image as an image_url part; a model without vision says so and resends without it', async () => {
    const png = encodePng(2, 2, new Uint8Array(12).fill(200));
    const data = png.toString('base64');
    const vision = await openChat('model-5.2');
    await vision.send({ type: 'attachImage', name: 'pasted.png', mimeType: 'image/png', data });
    assert.deepEqual(vision.context!.chips.map((c) => [c.kind, c.label]), [['image', 'pasted.png']]);
    const mark = vision.posted.length;
    await vision.send({ type: 'send', requestId: 1, text: 'What colour is this?' });
    assert.equal((await vision.finish(mark)).status, 'complete');
    const body = lastBody();
    assert.equal(body.model, 'model-5.2');
    assert.deepEqual(body.messages[0].content, [
      { type: 'text', text: 'What colour is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } },
    ]);

    const plain = await openChat('model-k3');
    await plain.send({ type: 'attachImage', name: 'pasted.png', mimeType: 'image/png', data });
    const start = plain.posted.length;
    await plain.send({ type: 'send', requestId: 1, text: 'And this?' });
    const failed = await plain.finish(start);
    assert.equal(failed.status, 'failed');
    assert.match(failed.error?.message ?? '', /model-k3: this model does not accept images/);
    assert.equal(failed.error?.actions[0], 'Resend Without Image');
    const retry = plain.posted.length;
    await plain.send({ type: 'errorAction', turnId: failed.turnId, index: 0 });
    assert.equal((await plain.finish(retry)).status, 'complete');
    assert.deepEqual(lastBody().messages, [{ role: 'user', content: 'And this?' }]);
  });

  it('compare sends the question to two models at once and keeps the chosen reply in the thread', async () => {
    const recorder = await openChat('model-k3');
    await recorder.send({ type: 'compare', requestId: 1, text: '[echo] Both of you, say this', models: ['model-k3', 'model-5.2'] });
    const done = await until(() => {
      const last = [...recorder.posted].reverse().find((m) => m.type === 'compare');
      return last?.type === 'compare' && last.compare && last.compare.columns.every((c) => c.status === 'complete') ? last.compare : undefined;
    }, 'both replies', 20_000);
    assert.deepEqual(chatRequests().map((e) => (e.body as ChatBody).model).sort(), ['model-5.2', 'model-k3']);
    for (const column of done.columns) {
      assert.equal(column.content, 'Both of you, say this');
      assert.ok(column.firstTokenMs !== null && column.totalMs !== null && column.totalMs >= column.firstTokenMs, JSON.stringify(column));
      assert.ok(column.usage && column.usage.total > 0);
    }
    const mark = recorder.posted.length;
    await recorder.send({ type: 'keepCompare', id: done.id, index: 1 });
    await recorder.finish(mark);
    assert.equal(recorder.posted.slice(mark).some((m) => m.type === 'compare' && m.compare === null), true, 'the comparison closes');
    const turns = recorder.panel.controller.session.turns;
    assert.deepEqual(turns.map((t) => t.role), ['user', 'assistant']);
    assert.ok(turns[1].role === 'assistant' && turns[1].model === 'model-5.2' && turns[1].content === 'Both of you, say this');
    assert.equal(chatRequests().length, 2, 'keeping a reply sends nothing more');
  });

  it('the workspace file picker leaves out files.exclude and .gitignore matches', async () => {
    fs.writeFileSync(path.join(folder, '.gitignore'), 'ignored-*.ts\nbuild/\n!ignored-but-kept.ts\n');
    for (const name of ['ignored-1.ts', 'ignored-but-kept.ts', 'excluded.ts', 'build/out.ts']) {
      fs.mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
      fs.writeFileSync(path.join(folder, name), 'export {};\n');
    }
    await vscode.workspace.getConfiguration('files').update('exclude', { '**/excluded.ts': true }, vscode.ConfigurationTarget.Global);
    try {
      const provider = new WorkspaceContextProvider({ editor: () => undefined, maxBytes: () => 1024 * 1024, newId: () => 'x' });
      const listed = await until(async () => {
        const files = (await provider.listWorkspaceFiles()).map((f) => f.path).filter((p) => p.includes('mg-context-test/'));
        return files.some((p) => p.endsWith('ignored-but-kept.ts')) ? files : undefined;
      }, 'the new files to be found');
      const names = listed.map((p) => p.slice(p.indexOf('mg-context-test/') + 'mg-context-test/'.length));
      assert.ok(names.includes('sample.ts') && names.includes('ignored-but-kept.ts'), names.join(', '));
      for (const hidden of ['ignored-1.ts', 'excluded.ts', 'build/out.ts']) assert.ok(!names.includes(hidden), `${hidden} is not offered: ${names.join(', ')}`);
    } finally {
      await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
