import * as assert from 'node:assert/strict';
import { defaultSettings } from '../../../src/chatProtocol/session';
import { safeExternalUrl } from '../../../src/util/externalUrl';
import { parseHostMessage, parseWebviewMessage } from '../../../src/chatProtocol/messages';

describe('chat protocol', () => {
  describe('messages from the webview', () => {
    const valid: unknown[] = [
      { type: 'ready' },
      { type: 'send', requestId: 1, text: 'hello' },
      { type: 'stop' },
      { type: 'regenerate' },
      { type: 'editResend', turnId: 'abc-1', text: 'again' },
      { type: 'updateSettings', settings: { ...defaultSettings(), sampling: { mode: 'temperature', value: 0.7 } } },
      { type: 'copyTurn', turnId: 't1' },
      { type: 'codeAction', action: 'insert', code: 'x = 1', lang: 'python' },
      { type: 'openLink', href: 'https://example.com' },
      { type: 'errorAction', turnId: 't1', index: 0 },
      { type: 'exportSession' },
      { type: 'refreshModels' },
      { type: 'newChat' },
      { type: 'resync' },
    ];
    for (const message of valid) {
      it(`accepts ${JSON.stringify(message).slice(0, 70)}`, () => {
        const parsed = parseWebviewMessage(message);
        assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
        assert.deepEqual(parsed.message, message);
      });
    }

    const invalid: Array<[string, unknown]> = [
      ['a non-object', 'ready'],
      ['null', null],
      ['an unknown type', { type: 'runCommand', command: 'workbench.action.terminal.new' }],
      ['a prototype key as type', { type: 'constructor' }],
      ['an extra field', { type: 'stop', command: 'x' }],
      ['an empty message', { type: 'send', requestId: 1, text: '' }],
      ['a non-string text', { type: 'send', requestId: 1, text: 42 }],
      ['a turn id that is a path', { type: 'copyTurn', turnId: '../../etc' }],
      ['an unknown code action', { type: 'codeAction', action: 'run', code: 'rm -rf /', lang: 'sh' }],
      ['both temperature and top_p', { type: 'updateSettings', settings: { ...defaultSettings(), sampling: { mode: 'temperature', value: 1, top_p: 1 } } }],
      ['temperature above 2', { type: 'updateSettings', settings: { ...defaultSettings(), sampling: { mode: 'temperature', value: 2.5 } } }],
      ['top_p above 1', { type: 'updateSettings', settings: { ...defaultSettings(), sampling: { mode: 'top_p', value: 1.5 } } }],
      ['max_tokens of 0', { type: 'updateSettings', settings: { ...defaultSettings(), maxTokens: 0 } }],
      ['a fractional max_tokens', { type: 'updateSettings', settings: { ...defaultSettings(), maxTokens: 1.5 } }],
      ['an empty stop sequence', { type: 'updateSettings', settings: { ...defaultSettings(), stop: [''] } }],
      ['a settings object with an extra key', { type: 'updateSettings', settings: { ...defaultSettings(), apiKey: 'sk-x' } }],
      ['a negative action index', { type: 'errorAction', turnId: 't1', index: -1 }],
      ['an over-long text', { type: 'send', requestId: 1, text: 'x'.repeat(1_000_001) }],
    ];
    for (const [what, message] of invalid) {
      it(`drops ${what}`, () => assert.equal(parseWebviewMessage(message).ok, false));
    }
  });

  describe('messages from the host', () => {
    it('accepts an init with turns of both kinds', () => {
      const message = {
        type: 'init',
        sessionId: 's1',
        title: 'Chat',
        settings: defaultSettings(),
        turns: [
          { id: 'u1', role: 'user', createdAt: 1, content: 'Hi' },
          {
            id: 'a1',
            role: 'assistant',
            createdAt: 2,
            model: 'model-k3',
            content: 'Hello',
            reasoning: '',
            refusal: '',
            toolCalls: [],
            status: 'failed',
            finishReason: null,
            usage: null,
            error: { message: 'Rate limited', kind: 'rate_limit', actions: [], retryInMs: 3000 },
          },
        ],
        models: { models: ['model-k3'], loading: false },
      };
      assert.ok(parseHostMessage(message).ok);
    });

    it('accepts a delta and a finish', () => {
      assert.ok(parseHostMessage({ type: 'turnDelta', delta: { turnId: 'a1', content: { at: 0, text: 'x' } } }).ok);
      assert.ok(parseHostMessage({ type: 'turnFinished', finish: { turnId: 'a1', status: 'stopped', model: 'm', finishReason: null, usage: { prompt: 1, completion: 2, total: 3 } } }).ok);
    });

    it('drops an error that carries a command (the webview only ever gets action titles)', () => {
      const finish = { turnId: 'a1', status: 'failed', model: 'm', finishReason: null, usage: null, error: { message: 'x', kind: 'auth', actions: [{ title: 'Set API Key', command: 'modelGateway.setApiKey' }] } };
      assert.equal(parseHostMessage({ type: 'turnFinished', finish }).ok, false);
    });

    it('drops a finish that claims to be still streaming, and unknown types', () => {
      assert.equal(parseHostMessage({ type: 'turnFinished', finish: { turnId: 'a1', status: 'streaming', model: 'm', finishReason: null, usage: null } }).ok, false);
      assert.equal(parseHostMessage({ type: 'eval', code: 'alert(1)' }).ok, false);
    });
  });

  describe('safeExternalUrl', () => {
    it('lets http and https through', () => {
      assert.equal(safeExternalUrl('https://example.com/a?b=c'), 'https://example.com/a?b=c');
      assert.equal(safeExternalUrl('http://127.0.0.1:8080/'), 'http://127.0.0.1:8080/');
    });
    for (const href of ['command:workbench.action.terminal.new', 'vscode://file/etc/passwd', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,<b>x', 'vscode-webview://x', 'https://user:pw@example.com/', 'not a url', '//example.com']) {
      it(`keeps ${href} inert`, () => assert.equal(safeExternalUrl(href), undefined));
    }
  });
});
