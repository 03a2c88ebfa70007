// A turn a newer version of the extension wrote: the chat view shows one small line saying so, in the theme's
// secondary text colour, reachable by its label, and the turns around it as usual.
import assert from 'node:assert/strict';
import { chatBundle } from './chatBundle';
import { chatCss } from './harness';
import { useSuitePage } from './suitePage';

describe('chat view in Chromium: a turn made by a newer version', function () {
  this.timeout(30_000);
  const suite = useSuitePage(undefined, { body: '', script: chatBundle, styles: `${chatCss()}\n:root { --vscode-descriptionForeground: rgb(1, 2, 3); }` });

  it('is shown as "made by a newer version", in the theme colour, with the turns around it', async () => {
    const page = suite.page;
    const init = {
      type: 'init',
      sessionId: 's1',
      title: 'From the future',
      settings: { model: 'model-k3', systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false },
      turns: [
        { id: 'u1', role: 'user', createdAt: 1, content: 'Hi' },
        { id: 'p1', role: 'newer', createdAt: 2, kind: 'poll', content: '' },
        { id: 'a1', role: 'assistant', createdAt: 3, model: 'model-k3', content: 'Hello', reasoning: '', refusal: '', toolCalls: [], status: 'complete', finishReason: 'stop', usage: null },
      ],
      models: { models: ['model-k3'], loading: false },
    };
    const refused = await page.evaluate((message) => {
      const w = window as unknown as { Chat: typeof import('../../src/webview/chat/app') };
      const posted: Array<{ type: string }> = [];
      const root = document.createElement('div');
      document.body.append(root);
      new w.Chat.ChatApp(root, { post: (m) => posted.push(m as { type: string }), setState: () => undefined }).receive(message);
      return posted.filter((m) => m.type === 'refused');
    }, init);
    assert.deepEqual(refused, [], 'the view accepted the turn');
    const turn = page.getByRole('article', { name: 'Made by a newer version of Model Gateway' });
    await turn.waitFor();
    assert.equal(await turn.getAttribute('data-turn-id'), 'p1');
    assert.match((await turn.textContent()) ?? '', /Made by a newer version of Model Gateway; update the extension to see it\./);
    assert.equal(await turn.evaluate((el) => getComputedStyle(el).color), 'rgb(1, 2, 3)');
    assert.deepEqual(await page.locator('[data-turn-id]').evaluateAll((els) => els.map((el) => el.getAttribute('data-turn-id'))), ['u1', 'p1', 'a1']);
  });
});
