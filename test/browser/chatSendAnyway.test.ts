// A reply that waits long for the gateway's rate limit: the notice says how long in words a person reads (not
// thousands of seconds), and offers "Send anyway", a button that keeps its focus while the countdown ticks and
// posts which reply to send; a short wait offers nothing of the kind.
import assert from 'node:assert/strict';
import { chatBundle } from './chatBundle';
import { chatCss } from './harness';
import { useSuitePage } from './suitePage';

describe('chat view in Chromium: Send anyway on a long rate-limit wait', function () {
  this.timeout(30_000);
  const suite = useSuitePage(undefined, { body: '', script: chatBundle, styles: chatCss() });

  it('offers Send anyway on a wait over a minute, and posts it for that reply', async () => {
    const page = suite.page;
    const init = {
      type: 'init',
      sessionId: 's1',
      title: 'Waiting',
      settings: { model: 'model-k3', systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false },
      turns: [
        { id: 'u1', role: 'user', createdAt: 1, content: 'Hi' },
        { id: 'a1', role: 'assistant', createdAt: 2, model: 'model-k3', content: '', reasoning: '', refusal: '', toolCalls: [], status: 'streaming', finishReason: null, usage: null },
      ],
      models: { models: ['model-k3'], loading: false },
    };
    await page.evaluate((message) => {
      const w = window as unknown as { Chat: typeof import('../../src/webview/chat/app'); posted: Array<{ type: string }>; app: { receive(m: unknown): void } };
      w.posted = [];
      const root = document.createElement('div');
      document.body.append(root);
      w.app = new w.Chat.ChatApp(root, { post: (m) => w.posted.push(m as { type: string }), setState: () => undefined });
      w.app.receive(message);
      w.app.receive({ type: 'turnWaiting', turnId: 'a1', waitMs: 30_000, sendAnyway: false });
    }, init);
    const button = page.getByRole('button', { name: 'Send anyway' });
    await page.locator('.pace-wait', { hasText: 'sending in 30 s.' }).waitFor();
    assert.equal(await button.count(), 0, 'a short wait is just waited');
    await page.evaluate(() => (window as unknown as { app: { receive(m: unknown): void } }).app.receive({ type: 'turnWaiting', turnId: 'a1', waitMs: 8 * 3_600_000, sendAnyway: true }));
    await page.locator('.pace-wait', { hasText: 'sending in 8 h 0 min.' }).waitFor();
    await button.focus();
    // The countdown redraws every second; the button keeps its focus through it.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const status = document.querySelector('[data-turn-id="a1"] .turn-status')!;
          const observer = new MutationObserver(() => (observer.disconnect(), resolve()));
          observer.observe(status, { childList: true });
        }),
    );
    assert.equal(await button.evaluate((el) => el === document.activeElement), true);
    await page.keyboard.press('Enter');
    const posted = await page.evaluate(() => (window as unknown as { posted: Array<{ type: string }> }).posted.filter((m) => m.type !== 'ready' && m.type !== 'refused'));
    assert.deepEqual(posted.at(-1), { type: 'sendAnyway', turnId: 'a1' });
    // Sent: the notice and its button go.
    await page.evaluate(() => (window as unknown as { app: { receive(m: unknown): void } }).app.receive({ type: 'turnWaiting', turnId: 'a1', waitMs: null, sendAnyway: false }));
    await button.waitFor({ state: 'hidden' });
  });
});
