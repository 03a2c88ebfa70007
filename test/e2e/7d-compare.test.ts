// Compare Models… from the Command Palette, as a user runs it in a new chat: the question typed in the box it asks,
// both chat models ticked, two columns with their timings in the chat, and the preferred reply kept in the thread.
// The chat is closed afterwards, so the flow goes on with the chat it had on screen.
import * as assert from 'node:assert/strict';
import { useE2E } from './harness/suite';
import { textNow, until, WAIT_MS } from './harness/workbench';

const QUESTION = '[echo] Which retry strategy suits the video poller?';
const MODELS = ['model-k3', 'model-5.2'];

describe('e2e 7d: Compare Models…', function () {
  this.timeout(3 * WAIT_MS);
  const e = useE2E('compare', ['chat', 'commands']);

  it('asks the question, streams both models side by side in the chat, and keeps the reply picked', async () => {
    await e.wb.runCommand('Model Gateway: New Chat');
    const requests = () => e.s.sim.log.filter((entry) => entry.path === '/v1/chat/completions').length;
    const before = requests();
    await e.wb.runCommand('Model Gateway: Compare Models…');
    await e.wb.answerInput(QUESTION, 'Compare Models');
    await e.wb.quickInputTitled('Compare Models');
    // The chat's own model may be ticked already: a click that unticks a model is undone, until both are ticked.
    const count = e.wb.page.locator('.quick-input-widget .quick-input-count');
    // With nothing ticked the count is hidden: read it only when shown.
    const selected = async () => ((await count.isVisible()) ? Number(/(\d+) Selected/.exec(await textNow(count))?.[1] ?? 0) : 0);
    for (const model of MODELS) {
      if ((await selected()) === 2) break;
      const row = e.wb.quickPickRow(model).first();
      await row.waitFor({ timeout: WAIT_MS });
      const was = await selected();
      await row.click();
      await until(async () => (await selected()) !== was, `${model} to be ticked or unticked`);
      if ((await selected()) < was) await row.click();
    }
    await until(async () => (await selected()) === 2, 'both models ticked');
    await e.wb.page.keyboard.press('Enter');

    const frame = await e.chat.frame();
    const columns = frame.locator('.compare-column');
    const keep = frame.locator('.compare-column button:not([disabled])', { hasText: 'Keep This Reply' });
    await until(async () => (await keep.count()) === 2, 'both replies to finish');
    assert.deepEqual(await columns.locator('.compare-model').allInnerTexts(), MODELS);
    for (const meta of await columns.locator('.compare-meta').allInnerTexts()) assert.match(meta, /^complete · first token .+ · total .+ · \d+ prompt/);
    assert.equal(requests(), before + 2, 'one request per model');

    await keep.nth(1).click();
    await frame.locator('section.compare').waitFor({ state: 'hidden', timeout: WAIT_MS });
    const reply = frame.locator('article.assistant-turn').last();
    await until(async () => /model-5\.2/.test(await reply.innerText()) && /Which retry strategy suits the video poller\?/.test(await reply.innerText()), 'the kept reply in the thread');
    assert.equal(requests(), before + 2, 'keeping a reply sends nothing more');
    await e.wb.runCommand('View: Close Editor');
  });
});
