import * as assert from 'node:assert/strict';
import { ChatContext, type ContextSources } from '../../../../src/chat/core/chatContext';
import { attachmentTokens, type Attachment, type TextAttachment } from '../../../../src/chatProtocol/attachments';
import { cleanHostMessage, parseHostMessage, parseWebviewMessage, type ContextSource } from '../../../../src/chatProtocol/messages';
import { repairSession } from '../../../../src/chatProtocol/sessionData';
import type { UserTurn } from '../../../../src/chatProtocol/session';
import { wireTurn } from '../../../../src/chat/core/webviewBridge';
import { settle } from '../../../util/fakeClock';
import { gatewayError, result } from '../fakes';
import { createHarness, type Harness } from '../harness';

const PNG_BASE64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).toString('base64');

function file(id: string, lines: number): TextAttachment {
  const text = Array.from({ length: lines }, (_, i) => `const v${i} = ${i};`).join('\n');
  return { kind: 'text', id, source: 'file', path: `src/${id}.ts`, language: 'typescript', startLine: 1, endLine: lines, totalLines: lines, text };
}

class FakeSources implements ContextSources {
  readonly warnings: string[] = [];
  next: Attachment[] = [];
  asked: ContextSource[] = [];
  async collect(source: ContextSource): Promise<Attachment[]> {
    this.asked.push(source);
    return this.next.splice(0);
  }
  async fromUris(): Promise<Attachment[]> {
    return this.next.splice(0);
  }
  warn(message: string): void {
    this.warnings.push(message);
  }
}

function setup(window = 100_000, scale = 1): { h: Harness; sources: FakeSources; context: ChatContext } {
  const h = createHarness();
  const sources = new FakeSources();
  let n = 0;
  const context = new ChatContext(h.controller, { sources, windowFor: () => ({ tokens: window, source: 'setting' }), tokenScale: () => scale, newId: () => `att${++n}` });
  return { h, sources, context };
}

describe('chat context (ChatContext and the protocol)', () => {
  describe('protocol', () => {
    const valid: unknown[] = [
      { type: 'addContext', source: 'workspaceFile' },
      { type: 'addContext', source: 'menu' },
      { type: 'removeAttachment', id: 'att-1' },
      { type: 'trimContext' },
      { type: 'dropUris', uris: ['file:///w/src/a.ts'] },
      { type: 'attachImage', name: 'shot.png', mimeType: 'image/png', data: PNG_BASE64 },
    ];
    for (const message of valid) {
      it(`accepts ${JSON.stringify(message).slice(0, 70)}`, () => {
        const parsed = parseWebviewMessage(message);
        assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
      });
    }
    const invalid: Array<[string, unknown]> = [
      ['an unknown context source', { type: 'addContext', source: 'terminal' }],
      ['an attachment id that is a path', { type: 'removeAttachment', id: '../x' }],
      ['no dropped URIs', { type: 'dropUris', uris: [] }],
      ['too many dropped URIs', { type: 'dropUris', uris: Array.from({ length: 51 }, (_, i) => `file:///${i}`) }],
      ['an SVG as an image', { type: 'attachImage', name: 'x.svg', mimeType: 'image/svg+xml', data: PNG_BASE64 }],
      ['image data that is not base64', { type: 'attachImage', name: 'x.png', mimeType: 'image/png', data: 'data:image/png;base64,AAAA' }],
      ['an image over the limit', { type: 'attachImage', name: 'x.png', mimeType: 'image/png', data: 'A'.repeat(8 * 1024 * 1024) }],
      ['an extra field on trimContext', { type: 'trimContext', id: 'x' }],
    ];
    for (const [what, message] of invalid) {
      it(`refuses ${what}`, () => assert.equal(parseWebviewMessage(message).ok, false));
    }

    it('sends context state and user turns with chips only, never attachment content', () => {
      const state = { type: 'context', context: { chips: [{ id: 'a1', kind: 'text', label: 'a.ts', detail: 'src/a.ts, lines 1–3', tokens: 20 }], baseTokens: 10, window: 1000, windowSource: 'model', warning: '' } };
      assert.ok(parseHostMessage(state).ok);
      const turn: UserTurn = { id: 'u1', role: 'user', createdAt: 1, content: 'Hi', attachments: [file('a', 3)] };
      const wire = wireTurn(turn, 0);
      assert.ok(parseHostMessage({ type: 'turnAdded', turn: wire }).ok);
      assert.equal(JSON.stringify(wire).includes('const v0'), false, 'the file content stays in the host');
      assert.equal(parseHostMessage({ type: 'turnAdded', turn: { ...turn } }).ok, false, 'a raw attachment is not a chip');
    });

    it('keeps attachments through a session file, and drops malformed ones', () => {
      const raw = { turns: [{ id: 'u1', role: 'user', createdAt: 1, content: 'Hi', attachments: [file('a', 2), { kind: 'image', id: 'i1', name: 'x.png', mimeType: 'image/png', data: PNG_BASE64 }, { kind: 'text', id: '../bad' }] }] };
      const repaired = repairSession(raw, 's1');
      const turn = repaired?.session.turns[0] as UserTurn;
      assert.equal(turn.attachments?.length, 2);
      assert.deepEqual(turn.attachments?.[0], file('a', 2));
    });
  });

  describe('ChatContext', () => {
    it('attaches, shows chips with tokens, sends fenced context and saves it with the turn', async () => {
      const { h, sources, context } = setup();
      const states: number[] = [];
      context.onDidChange((s) => states.push(s.chips.length));
      sources.next = [file('a', 3)];
      await context.add('activeFile');
      assert.deepEqual(sources.asked, ['activeFile']);
      assert.deepEqual(context.state.chips.map((c) => [c.label, c.tokens]), [['a.ts', attachmentTokens(file('a', 3))]]);
      assert.equal(context.send('Explain'), true);
      await settle();
      const content = h.gateway.calls[0].request.messages[0].content as string;
      assert.match(content, /^File `src\/a\.ts` \(lines 1–3, typescript\):\n\n```typescript\nconst v0 = 0;/);
      assert.ok(content.endsWith('\n\nExplain'));
      assert.equal(context.state.chips.length, 0, 'the tray is empty once sent');
      assert.deepEqual([...new Set(states)], [1, 0], 'the chip shows until the message takes it');
      assert.deepEqual((h.session.turns[0] as UserTurn).attachments, [file('a', 3)]);
      h.gateway.calls[0].resolve(result('ok'));
      await h.controller.idle;
      const saved = JSON.parse(h.fs.files.get('s1.json') ?? '{}');
      assert.equal(saved.session.turns[0].attachments[0].text, file('a', 3).text);

      // Regenerate and edit-and-resend send the same context.
      await h.controller.regenerate();
      await settle();
      assert.equal(h.gateway.calls[1].request.messages[0].content, content);
      h.gateway.calls[1].resolve(result('again'));
      await h.controller.idle;
      await h.controller.editAndResend(h.session.turns[0].id, 'Explain briefly');
      await settle();
      assert.equal(h.gateway.calls[2].request.messages[0].content, content.replace(/Explain$/, 'Explain briefly'));
      h.gateway.calls[2].resolve(result('short'));
      await h.controller.idle;
      context.dispose();
    });

    it('holds back a message that would overflow the window, and sends once the user trims', async () => {
      const { h, sources, context } = setup(300);
      sources.next = [file('big', 200)];
      await context.add('workspaceFile');
      assert.ok(context.state.chips[0].tokens > 300);
      assert.equal(context.send('Summarise'), false);
      await settle();
      assert.equal(h.gateway.calls.length, 0, 'nothing left for the gateway');
      assert.match(context.state.warning, /Not sent: the message would overflow the context window of model-k3 \(≈\d+ of 300 tokens\)/);
      assert.equal(context.state.chips.length, 1, 'the attachment is kept, untouched');
      assert.equal(h.session.turns.length, 0);

      context.trim(1 + Math.ceil('Summarise'.length / 4));
      const chip = context.state.chips[0];
      assert.match(chip.detail, /trimmed from 200 lines/);
      assert.equal(context.state.warning, '');
      assert.equal(context.send('Summarise'), true);
      await settle();
      const sent = h.gateway.calls[0].request.messages[0].content as string;
      assert.match(sent, /File `src\/big\.ts` \(lines 1–\d+, trimmed from 200 lines, typescript\)/);
      h.gateway.calls[0].resolve(result('ok'));
      await h.controller.idle;
      context.dispose();
    });

    it('Trim (from the page, which names no draft) leaves room for the message held back, so sending it again goes', async () => {
      const question = 'Summarise this file, and say what each function does';
      for (let lines = 150; lines < 190; lines++) {
        const { h, sources, context } = setup(300);
        sources.next = [file('big', lines)];
        await context.add('workspaceFile');
        assert.equal(context.send(question), false, `${lines} lines: held back`);
        await settle();
        context.trim();
        assert.equal(context.send(question), true, `${lines} lines: sent after the trim`);
        await settle();
        h.gateway.calls[0].resolve(result('ok'));
        await h.controller.idle;
        context.dispose();
      }
    });

    it("measures against the model's learned characters per token: what fits at 4 a token may not at 2", async () => {
      const flat = setup(300);
      flat.sources.next = [file('mid', 50)];
      await flat.context.add('workspaceFile');
      const tokens = flat.context.state.chips[0].tokens;
      assert.ok(tokens > 150 && tokens < 280, `${tokens} flat tokens fit 300`);
      assert.equal(flat.context.state.tokenScale, undefined, 'not measured: the flat estimate, said by nothing');
      assert.equal(flat.context.send('Go'), true);
      await settle();
      flat.h.gateway.calls[0].resolve(result('ok'));
      await flat.h.controller.idle;
      flat.context.dispose();

      const dense = setup(300, 2);
      dense.sources.next = [file('mid', 50)];
      await dense.context.add('workspaceFile');
      assert.equal(dense.context.state.tokenScale, 2, 'the meter is told the factor');
      assert.equal(dense.context.send('Go'), false, 'twice the tokens do not fit');
      assert.match(dense.context.state.warning, new RegExp(`≈${Math.ceil((tokens + 1 + 3) * 2)} of 300 tokens`));
      const cleaned = cleanHostMessage({ type: 'context', context: { ...dense.context.state, tokenScale: 1e9 } });
      assert.ok(cleaned?.type === 'context' && cleaned.context.tokenScale === undefined, 'a factor no tokenizer gives is dropped');
      dense.context.dispose();
    });

    it('warns before sending an image to a model whose list says it cannot see, and sends it when asked again', async () => {
      const h = createHarness();
      const seen: string[] = [];
      const context = new ChatContext(h.controller, { sources: new FakeSources(), windowFor: () => ({ tokens: 100_000, source: 'setting' }), newId: () => 'img1', seesImages: (model) => (seen.push(model), false) });
      context.addImage('shot.png', PNG_BASE64);
      assert.equal(context.send('What is this?'), false, 'held back with a warning');
      assert.match(context.state.warning, /cannot see images.*Send again to send the image anyway/);
      assert.equal(h.gateway.calls.length, 0, 'nothing went out');
      assert.deepEqual(seen, [h.session.settings.model]);
      assert.equal(context.send('What is this?'), true, 'the second send is the yes');
      await settle();
      assert.equal(h.gateway.calls.length, 1);
      assert.equal(context.state.warning, '');
      context.dispose();
    });

    it('sends an image without a warning when the model can see or its list says nothing', async () => {
      for (const sees of [true, undefined]) {
        const h = createHarness();
        const context = new ChatContext(h.controller, { sources: new FakeSources(), windowFor: () => ({ tokens: 100_000, source: 'setting' }), newId: () => 'img1', seesImages: () => sees });
        context.addImage('shot.png', PNG_BASE64);
        assert.equal(context.send('What is this?'), true, String(sees));
        context.dispose();
      }
    });

    it('takes an image only when its bytes are an image, whatever the webview said', async () => {
      const { h, sources, context } = setup();
      context.addImage('fake.png', Buffer.from('<svg></svg>').toString('base64'));
      assert.match(sources.warnings[0], /fake\.png is not a PNG, JPEG, WebP or GIF image/);
      context.addImage('shot.png', PNG_BASE64);
      assert.deepEqual(context.state.chips.map((c) => [c.kind, c.label]), [['image', 'shot.png']]);
      assert.equal(context.send('What is this?'), true);
      await settle();
      const content = h.gateway.calls[0].request.messages[0].content;
      assert.deepEqual(content, [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } }]);

      // The model refuses images: say so, and resend the same message without them.
      h.gateway.calls[0].reject(gatewayError({ status: 400, code: 'invalid_request_error', message: 'model-k3 does not support image input' }));
      await h.controller.idle;
      const failed = h.session.turns[1];
      assert.ok(failed.role === 'assistant' && failed.status === 'failed');
      assert.match(failed.error?.message ?? '', /model-k3: this model does not accept images/);
      assert.equal(failed.error?.actions[0].title, 'Resend Without Image');
      assert.equal(await h.controller.resendWithoutImages(), true);
      await settle();
      assert.deepEqual(h.gateway.calls[1].request.messages, [{ role: 'user', content: 'What is this?' }]);
      assert.equal(h.session.turns.length, 2, 'the failed exchange is replaced, not kept');
      h.gateway.calls[1].resolve(result('A picture.'));
      await h.controller.idle;
      context.dispose();
    });

    it('a 400 without images keeps the ordinary message', async () => {
      const { h, context } = setup();
      assert.equal(context.send('Hi'), true);
      await settle();
      h.gateway.calls[0].reject(gatewayError({ status: 400, code: 'invalid_request_error', message: 'bad' }));
      await h.controller.idle;
      const failed = h.session.turns[1];
      assert.ok(failed.role === 'assistant');
      assert.doesNotMatch(failed.error?.message ?? '', /images/);
      context.dispose();
    });
  });
});
