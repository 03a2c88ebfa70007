// The error path: the gateway stops accepting the key. The chat says "API key missing or invalid" with a Set
// API Key action; the key typed there makes Retry work.
import * as assert from 'node:assert/strict';

import { useE2E } from './harness/suite';
import { until, WAIT_MS } from './harness/workbench';

const ROTATED_KEY = `sk-sim-rotated-${'fedcba9876543210'.repeat(2)}`;

describe('e2e 8: a refused key', function () {
  this.timeout(3 * WAIT_MS);
  const e = useE2E('errors', ['chat', 'commands']);


  it('shows "API key missing or invalid" with a Set API Key action, which fixes it', async () => {
    // The gateway rotates the key; its jobs and their files stay, for the pictures after this step.
    e.s.sim.rotateKey(ROTATED_KEY);
    // The media steps opened their files over the chat.
    await e.chat.showTab();
    const reply = await e.chat.sendAndWait('[echo] still there?');
    const error = reply.locator('.turn-error');
    await error.waitFor({ state: 'visible', timeout: WAIT_MS });
    assert.match(await error.innerText(), /API key missing or invalid/);
    await until(async () => /API key missing or invalid/.test((await e.chat.liveRegions()).assertive), 'the error to be announced');
    // What it shows says the state; what it tells a screen reader (its tooltip) says why.
    await until(async () => /Gateway: unauthorized/.test(await e.wb.status().innerText()), 'the status bar to say unauthorized');
    assert.match((await e.wb.status().getAttribute('aria-label')) ?? '', /Invalid API key|API key missing or invalid/);
    await e.wb.screenshot('chat-key-refused');

    await error.locator('button', { hasText: 'Set API Key' }).click();
    await e.wb.answerInput(ROTATED_KEY, 'Replace the API key');
    await e.wb.toast(/Replaced the API key/).first().waitFor({ timeout: WAIT_MS });
    await error.locator('button', { hasText: 'Retry' }).click();
    await until(async () => !(await e.chat.isStreaming(reply)) && (await e.chat.replyText(reply)).trim() === 'still there?', 'the retried reply');
    await until(async () => /connected to/.test((await e.wb.status().getAttribute('aria-label')) ?? ''), 'the status bar to say connected');
  });
});
