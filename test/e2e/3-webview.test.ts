// The chat webview's own code, driven through its real page inside the workbench: the composer's keys, every
// button of a turn and of a code block, a link (one URL, through the extension's check and VS Code's own
// prompt), the settings gear, the usage display and the live regions.
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { EXTENSION_ID, session } from './harness/session';
import { useE2E } from './harness/suite';
import { until, WAIT_MS } from './harness/workbench';

/** The chat's session file, as the extension saved it in its global storage. */
async function savedSession(frame: Frame): Promise<{ settings: { sampling: { mode: string; value?: number } } }> {
  const id = await frame.locator('body').getAttribute('data-session-id');
  const s = await session();
  const file = join(s.paths.userData, 'User', 'globalStorage', EXTENSION_ID, 'chat', `${id}.json`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { session: { settings: { sampling: { mode: string; value?: number } } } }).session;
}

// The tokens, then the cost where it is known (reported by the gateway or estimated from its prices).
const USAGE = /^([\d,]+) prompt · ([\d,]+) completion · ([\d,]+) tokens(?: · (?:< )?\$[\d.]+)?$/;

describe('e2e 3: the chat webview', function () {
  this.timeout(3 * WAIT_MS);
  const e = useE2E('webview', ['chat']);


  const lastChatBody = () => e.s.sim.log.filter((e) => e.path === '/v1/chat/completions').at(-1)?.body as Record<string, unknown>;
  const clipboard = () => e.wb.page.evaluate(() => navigator.clipboard.readText());

  it('Shift+Enter adds a line, Enter sends; the reply shows its usage, the chat its total, and is announced', async () => {
    const composer = await e.chat.composer();
    const sent = await (await e.chat.userTurns()).count();
    await composer.click();
    await composer.pressSequentially('[echo] first line');
    await composer.press('Shift+Enter');
    await composer.pressSequentially('second line');
    assert.equal(await composer.inputValue(), '[echo] first line\nsecond line');
    assert.equal(await (await e.chat.userTurns()).count(), sent, 'Shift+Enter did not send');
    await composer.press('Enter');
    await until(async () => (await (await e.chat.userTurns()).count()) === sent + 1, 'the message to be sent');
    assert.equal(await (await e.chat.userTurns()).last().locator('.user-text').innerText(), '[echo] first line\nsecond line');
    const reply = await e.chat.waitForReplyCount(sent + 1);
    await e.chat.waitForFinished(reply);
    // A soft line break in Markdown: one paragraph. (The text is drawn on the next frame after the end.)
    await until(async () => /^first line\ssecond line$/.test((await e.chat.replyText(reply)).trim()), 'the reply as one paragraph');

    const usage = USAGE.exec(await reply.locator('.usage').innerText());
    assert.ok(usage, 'the reply shows its token usage');
    let total = 0;
    for (const text of await (await e.chat.frame()).locator('article.assistant-turn .usage:not([hidden])').allInnerTexts()) total += Number(USAGE.exec(text)?.[3].replace(/,/g, ''));
    const session = /^This chat: (.*)$/.exec(await (await e.chat.frame()).locator('.session-usage').innerText());
    assert.equal(Number(USAGE.exec(session?.[1] ?? '')?.[3].replace(/,/g, '')), total, 'the chat total adds up the replies');
    await until(async () => (await e.chat.liveRegions()).polite.includes('Reply complete.'), 'the live region to announce the end of the reply');
  });

  it('Up in the empty box edits the last message, Escape cancels the edit', async () => {
    const composer = await e.chat.composer();
    await composer.click();
    await composer.press('ArrowUp');
    const banner = (await e.chat.frame()).locator('.edit-banner');
    await banner.waitFor({ state: 'visible', timeout: WAIT_MS });
    assert.match(await banner.innerText(), /Editing your message/);
    assert.equal(await composer.inputValue(), '[echo] first line\nsecond line');
    await composer.press('Escape');
    await banner.waitFor({ state: 'hidden', timeout: WAIT_MS });
    assert.equal(await composer.inputValue(), '');
    await until(async () => (await e.chat.liveRegions()).polite.includes('Edit cancelled.'), 'the cancel to be announced');
  });

  it('Edit resends a changed message in place of the old one', async () => {
    const users = await e.chat.userTurns();
    const count = await users.count();
    await users.last().locator('button[aria-label="Edit and resend"]').click();
    const composer = await e.chat.composer();
    await until(async () => (await composer.inputValue()) === '[echo] first line\nsecond line', 'the message in the box');
    await composer.fill('[echo] edited message');
    await composer.press('Enter');
    await until(async () => (await (await e.chat.userTurns()).last().locator('.user-text').innerText()) === '[echo] edited message', 'the edited message');
    assert.equal(await (await e.chat.userTurns()).count(), count, 'the old message was replaced');
    const reply = await e.chat.lastReply();
    await until(async () => (await e.chat.replyText(reply)).trim() === 'edited message' && !(await e.chat.isStreaming(reply)), 'the reply to the edited message');
  });

  it('Regenerate asks again, and Copy copies the reply', async () => {
    const replies = await e.chat.assistantTurns();
    const count = await replies.count();
    const requests = e.s.sim.log.filter((e) => e.path === '/v1/chat/completions').length;
    await replies.last().locator('button[aria-label="Regenerate reply"]').click();
    await until(() => e.s.sim.log.filter((e) => e.path === '/v1/chat/completions').length === requests + 1, 'a new request');
    await until(async () => !(await e.chat.isStreaming()) && (await e.chat.replyText()).trim() === 'edited message', 'the regenerated reply');
    assert.equal(await (await e.chat.assistantTurns()).count(), count, 'the reply was replaced, not added');
    await (await e.chat.lastReply()).locator('button[aria-label="Copy reply"]').click();
    await until(async () => (await clipboard()).trim() === 'edited message', 'the reply on the clipboard');
  });

  it('Escape stops a running reply, which is announced', async () => {
    const before = await (await e.chat.assistantTurns()).count();
    await e.chat.send('[long:40] One more long story');
    const reply = await e.chat.waitForReplyCount(before + 1);
    await until(async () => (await e.chat.isStreaming(reply)) && (await e.chat.replyText(reply)).length > 100, 'the reply to stream');
    await (await e.chat.composer()).press('Escape');
    await reply.locator('.turn-status.status-stopped').waitFor({ timeout: WAIT_MS });
    await until(async () => (await e.chat.liveRegions()).polite.includes('Reply stopped.'), 'the stop to be announced');
  });

  it('the settings gear sends temperature or top_p, never both', async () => {
    const frame = await e.chat.frame();
    await frame.locator('button[aria-label="Chat settings"]').click();
    const panel = frame.locator('#session-settings');
    await panel.waitFor({ state: 'visible', timeout: WAIT_MS });
    await e.wb.screenshot('chat-settings');
    // Each change goes to the extension, which saves it and sends the settings back; the next value is typed once
    // that has happened (an answer arriving while a value is being typed would replace it; see the report).
    const sampling = async () => (await savedSession(frame)).settings.sampling;
    await panel.locator('label.radio', { hasText: 'Temperature' }).locator('input').check();
    await until(async () => (await sampling()).mode === 'temperature', 'the temperature mode to be saved');
    const value = panel.locator('fieldset.sampling input[type="number"]');
    await value.fill('0.3');
    await value.press('Tab');
    await until(async () => (await sampling()).value === 0.3, 'temperature 0.3 to be saved');
    await e.chat.sendAndWait('[echo] warm');
    assert.equal(lastChatBody().temperature, 0.3);
    assert.equal('top_p' in lastChatBody(), false);

    await panel.locator('label.radio', { hasText: 'Top P' }).locator('input').check();
    await until(async () => (await sampling()).mode === 'top_p', 'the top_p mode to be saved');
    await value.fill('0.9');
    await value.press('Tab');
    await until(async () => (await sampling()).value === 0.9, 'top_p 0.9 to be saved');
    await e.chat.sendAndWait('[echo] nucleus');
    assert.equal(lastChatBody().top_p, 0.9);
    assert.equal('temperature' in lastChatBody(), false);

    await value.fill('7');
    await value.press('Tab');
    assert.match(await panel.locator('.settings-problem').innerText(), /Top P \(0 to 1\): enter a number from 0 to 1/);
    await panel.locator('label.radio', { hasText: 'Model default' }).locator('input').check();
    await until(async () => (await sampling()).mode === 'default', 'the default mode to be saved');
    await frame.locator('button[aria-label="Chat settings"]').click();
    await panel.waitFor({ state: 'hidden', timeout: WAIT_MS });
  });

  it('opens a code block in a new file', async () => {
    const block = (await e.chat.assistantTurns()).first().locator('.code-block').first();
    const code = (await block.locator('pre code').textContent()) ?? '';
    await block.locator('button[data-action="new-file"]').click();
    // An untitled editor is named after its first line.
    const firstLine = code.split('\n')[0].trim();
    const untitled = e.wb.page.locator('.tabs-container .tab', { hasText: /Untitled-\d/ });
    await untitled.first().waitFor({ timeout: WAIT_MS });
    await until(async () => (await e.wb.page.locator('.editor-instance .monaco-editor .view-lines').allInnerTexts()).some((t) => t.replace(/\u00a0/g, ' ').includes(firstLine)), 'the code in the new file');
  });

  it('Apply shows the change for review, accepting changes the file, one undo takes it back; AGENTS.md shows as a chip', async () => {
    const s = await session();
    const file = join(s.paths.workspace, 'apply_me.py');
    const agents = join(s.paths.workspace, 'AGENTS.md');
    writeFileSync(file, 'def greet(name):\n    return f"Hello, {name}!"\n');
    writeFileSync(agents, '# Agents\n\nAnswer in plain English.\n');
    try {
      const frame = await e.chat.frame();
      const sessionFile = join(s.paths.userData, 'User', 'globalStorage', EXTENSION_ID, 'chat', `${await frame.locator('body').getAttribute('data-session-id')}.json`);
      await until(async () => /Instructions:\s*AGENTS\.md \(\d+ tokens\)/.test(await frame.locator('.instructions-bar').innerText().catch(() => '')), 'the instructions chip');
      const composer = await e.chat.composer();
      await composer.fill('[echo] Apply this:\n\n```python apply_me.py\ndef greet(name):\n    return f"Hi, {name}!"\n```');
      await composer.press('Enter');
      await until(async () => (await e.chat.replyText()).includes('Hi, {name}') && !(await e.chat.isStreaming()), 'the reply with the block');
      const system = (lastChatBody().messages as Array<{ role: string; content: string }>).filter((m) => m.role === 'system');
      assert.ok(system.some((m) => m.content.includes('Answer in plain English.')), 'the instructions went as system content');

      await (await e.chat.lastReply()).locator('.code-block button[data-action="apply"]').first().click();
      const preview = e.wb.page.locator('.bulk-edit-panel');
      const row = preview.locator('.monaco-list-row', { hasText: 'apply_me.py' }).first();
      await row.waitFor({ timeout: WAIT_MS });
      // Each change waits for its tick; the file's box ticks them all.
      await row.locator('.edit-checkbox').click();
      await e.wb.screenshot('readme-apply');
      assert.equal(readFileSync(file, 'utf8').includes('Hello'), true, 'nothing changes before the review is accepted');
      await preview.locator('.buttons .monaco-button', { hasText: /^Apply/ }).first().click();
      await e.wb.editorLines('Hi, {name}').waitFor({ timeout: WAIT_MS });
      await until(async () => {
        const saved = (JSON.parse(readFileSync(sessionFile, 'utf8')) as { session: { turns: Array<{ applies?: unknown[] }> } }).session;
        return JSON.stringify(saved.turns.at(-1)?.applies?.map((a) => ({ ...(a as object), at: 0 }))) === JSON.stringify([{ path: 'apply_me.py', outcome: 'applied', at: 0 }]);
      }, 'the chat to record the apply');
      await e.wb.editorLines('Hi, {name}').click();
      await e.wb.page.keyboard.press('Control+z');
      await e.wb.editorLines('Hello, {name}').waitFor({ timeout: WAIT_MS });
    } finally {
      rmSync(agents, { force: true });
    }
  });

  it('opens exactly one URL for a link, after VS Code asks', async () => {
    const reply = (await e.chat.assistantTurns()).first();
    const link = reply.locator('.content a', { hasText: 'guide' });
    const href = await link.getAttribute('data-href');
    assert.match(href ?? '', /^https:\/\/example\.com\/docs\//);
    const opened: Page[] = [];
    const onPage = (page: Page) => opened.push(page);
    e.wb.page.context().on('page', onPage);
    try {
      await link.click();
      await e.wb.dialogButton('Open');
      await until(() => opened.length > 0, 'the link to open');
      await until(async () => opened.every((p) => p.url() !== 'about:blank'), 'the opened pages to have their address');
      assert.deepEqual(opened.map((p) => p.url()), [href], 'exactly one page, at the link');
    } finally {
      e.wb.page.context().off('page', onPage);
      for (const page of opened) await page.close();
    }
  });
});
