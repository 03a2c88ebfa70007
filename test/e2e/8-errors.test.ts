// The error path: the gateway stops accepting the key. The chat says "API key missing or invalid" with a Set
// API Key action; the key typed there makes Retry work.
import * as assert from 'node:assert/strict';
import { ChatView } from './harness/chat';
import { session, type E2ESession } from './harness/session';
import { until, WAIT_MS, Workbench } from './harness/workbench';

const ROTATED_KEY = `sk-sim-rotated-${'fedcba9876543210'.repeat(2)}`;

describe('e2e 8: a refused key', function () {
  this.timeout(3 * WAIT_MS);
  let s: E2ESession;
  let wb: Workbench;
  let chat: ChatView;

  before(async () => {
    s = await session();
    wb = new Workbench(s);
    chat = new ChatView(wb);
  });

  it('shows "API key missing or invalid" with a Set API Key action, which fixes it', async () => {
    await s.restartSimulator({ apiKey: ROTATED_KEY });
    const reply = await chat.sendAndWait('[echo] still there?');
    const error = reply.locator('.turn-error');
    await error.waitFor({ state: 'visible', timeout: WAIT_MS });
    assert.match(await error.innerText(), /API key missing or invalid/);
    await until(async () => /API key missing or invalid/.test((await chat.liveRegions()).assertive), 'the error to be announced');
    await until(async () => /unauthorized/.test((await wb.status().getAttribute('aria-label')) ?? ''), 'the status bar to say unauthorized');
    await wb.screenshot('chat-key-refused');

    await error.locator('button', { hasText: 'Set API Key' }).click();
    await wb.answerInput(ROTATED_KEY, 'Replace the API key');
    await wb.toast(/Replaced the API key/).first().waitFor({ timeout: WAIT_MS });
    await error.locator('button', { hasText: 'Retry' }).click();
    await until(async () => !(await chat.isStreaming(reply)) && (await chat.replyText(reply)).trim() === 'still there?', 'the retried reply');
    await until(async () => /connected to/.test((await wb.status().getAttribute('aria-label')) ?? ''), 'the status bar to say connected');
  });
});
