// Chatting as a user does: New Chat from its keyboard shortcut, a model picked in the panel, a prompt typed and
// sent, the reply streaming in (its text grows between two looks), a table and highlighted code, Copy and
// Insert at Cursor on a code block, Stop in the middle of a reply, and the Usage dashboard showing what it spent.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeRecord } from '../../src/usage/core/ledgerLine';
import type { UsageRecord } from '../../src/usage/core/recordTypes';
import { EXTENSION_ID } from './harness/session';
import { useE2E } from './harness/suite';
import { until, WAIT_MS } from './harness/workbench';

describe('e2e 2: chat', function () {
  this.timeout(3 * WAIT_MS);
  const e = useE2E('chat', ['firstRun']);


  it('opens a chat with Ctrl+Alt+G beside the file being edited', async () => {
    await e.wb.openFile('hello.py', 'def greet');
    await e.wb.page.keyboard.press('Control+Alt+G');
    await e.chat.composer();
    await e.wb.runCommand('View: Move Editor into Next Group');
    await e.wb.editorLines('def greet').waitFor({ timeout: WAIT_MS });
    await e.chat.composer();
  });

  it('picks a model and streams a reply whose text grows, with a table and highlighted code', async () => {
    const frame = await e.chat.frame();
    const select = frame.locator('select.model-select');
    await until(async () => (await select.locator('option[value="model-5.2"]').count()) > 0, 'the model list in the panel');
    await select.selectOption('model-5.2');
    const requestsBefore = e.s.sim.log.length;
    await e.chat.send('Compare the models in a table and show some code');
    const reply = await e.chat.waitForReplyCount(1);
    const first = await until(async () => {
      const { streaming, length } = await e.chat.sample(reply);
      return streaming && length;
    }, 'the first streamed text');
    const grown = await until(async () => {
      const { streaming, length } = await e.chat.sample(reply);
      return streaming && length > first ? length : undefined;
    }, 'the text to grow while the reply streams');
    assert.ok(grown > first, `${first} → ${grown} characters while streaming`);
    await e.wb.screenshot('chat-streaming');
    await e.chat.waitForFinished(reply);
    const request = e.s.sim.log.slice(requestsBefore).find((e) => e.path === '/v1/chat/completions');
    assert.equal((request?.body as { model?: string }).model, 'model-5.2', 'the picked model was asked');
    assert.equal(await reply.locator('.content table').count(), 1, 'a table');
    assert.equal(await reply.locator('.content table tbody tr').count(), 3);
    const highlighted = reply.locator('.content .code-block pre code span[class*="hljs-"]');
    assert.ok((await highlighted.count()) > 0, 'highlighted code');
    assert.match(await reply.locator('.model-badge').innerText(), /model-5\.2/);
    await e.wb.screenshot('chat-reply');
  });

  it('copies a code block to the clipboard', async () => {
    const reply = await e.chat.lastReply();
    const block = reply.locator('.code-block').first();
    const code = (await block.locator('pre code').textContent()) ?? '';
    await block.locator('button[data-action="copy"]').click();
    const copied = await until(async () => {
      const text = await e.wb.page.evaluate(() => navigator.clipboard.readText());
      return text === code ? text : undefined;
    }, 'the code on the clipboard');
    assert.equal(copied, code);
  });

  it('inserts a code block at the cursor of the file beside the chat', async () => {
    const reply = await e.chat.lastReply();
    const block = reply.locator('.code-block').nth(1);
    const code = (await block.locator('pre code').textContent()) ?? '';
    const firstLine = code.split('\n')[0].trim();
    await block.locator('button[data-action="insert"]').click();
    const editor = e.wb.editorLines('def greet');
    await until(async () => normalizeSpaces(await editor.innerText()).includes(firstLine), `"${firstLine}" in hello.py`);
  });

  it('stops a reply in the middle and keeps the partial text, marked stopped', async () => {
    await e.chat.send('[long:40] Tell me a long story about gateways');
    const reply = await e.chat.waitForReplyCount(2);
    await until(async () => (await e.chat.isStreaming(reply)) && (await e.chat.replyText(reply)).length > 200, 'some of the long reply');
    await (await e.chat.frame()).locator('button.stop-button').click();
    await reply.locator('.turn-status.status-stopped').waitFor({ timeout: WAIT_MS });
    assert.match(await reply.locator('.turn-status').innerText(), /Stopped\. The text above is what arrived/);
    const kept = await e.chat.replyText(reply);
    assert.ok(kept.length > 200, 'the partial text stays');
    assert.ok(kept.length < 6000 && !/Paragraph 40 of 40/.test(kept), 'only part of the reply arrived');
    const request = await e.s.sim.waitForLog((e) => e.path === '/v1/chat/completions' && e.aborted, WAIT_MS);
    assert.match(JSON.stringify(request.body), /long:40/, 'the stopped request was cut off at the gateway');
    await e.wb.screenshot('chat-stopped');
  });

  it('shows what the chat spent in the Usage dashboard: a chart whose figures match the ledger', async () => {
    await e.wb.runCommand('Model Gateway: Show Usage');
    const frame = await until(async () => {
      for (const f of e.wb.page.frames()) if (!f.isDetached() && (await f.locator('#totals[data-requests]').count().catch(() => 0)) > 0) return f;
      return undefined;
    }, 'the Usage dashboard');
    await frame.locator('#chart canvas').first().waitFor({ timeout: WAIT_MS });
    const folder = join(e.s.paths.userData, 'User', 'globalStorage', EXTENSION_ID, 'usage');
    // The dashboard's default period is 30 days, and every record of this run is younger.
    const shown = async () => [Number(await frame.locator('#totals').getAttribute('data-requests')), Number(await frame.locator('#chart').getAttribute('data-total'))];
    await until(async () => {
      const records = ledgerRecords(folder);
      const [requests, total] = await shown();
      const cost = records.reduce((sum, r) => sum + (r.cost ?? 0), 0);
      return records.length > 0 && requests === records.length && Math.abs(total - cost) < 1e-9;
    }, 'the dashboard to show the ledger: as many requests, the same spend');
    assert.ok(ledgerRecords(folder).some((r) => r.surface === 'chat'), 'the chat requests are in the ledger');
    await e.wb.screenshot('usage-dashboard');
    await e.wb.runCommand('View: Close Editor');
  });
});

/** Every record in the ledger's files (the test reads them as the extension wrote them). */
function ledgerRecords(folder: string): UsageRecord[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((month) => /^\d{4}-\d{2}$/.test(month))
    .flatMap((month) => readdirSync(join(folder, month)).flatMap((name) => readFileSync(join(folder, month, name), 'utf8').split('\n')))
    .map((line) => decodeRecord(line))
    .filter((r): r is UsageRecord => r !== undefined);
}

function normalizeSpaces(text: string): string {
  return text.replace(/\u00a0/g, ' ');
}
