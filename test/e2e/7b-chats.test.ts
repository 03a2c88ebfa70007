// The Chats view as a user works it: filter and clear the filter from its title bar; Branch Here, Generate Title
// and Export from a chat's menu; Rename and Delete (with Undo) from its inline buttons; a click opens a chat.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHAT_TAB } from './harness/chat';
import { useE2E } from './harness/suite';
import { rowAction, rowMenu, sideBarView, viewTitleAction } from './harness/views';
import { COMPOSER, until, WAIT_MS } from './harness/workbench';

const TITLE_INSTRUCTION = /^Write a short title/;

describe('e2e 7b: the Chats view', function () {
  this.timeout(3 * WAIT_MS);
  const e = useE2E('chats', ['chat', 'commands']);

  const rows = () => sideBarView(e.wb, 'Chats').locator('.monaco-list-row');
  const chatRow = (text: string | RegExp) => rows().filter({ hasText: text });
  const branchRow = () => chatRow('(branch)').first();
  /** The branch once the model named it: the simulator's titles read "Reply to “…”". */
  const titledRow = () => chatRow('Reply to').first();
  /** The flow's chat (the branch's title also starts with its first words). */
  const firstChat = () => rows().filter({ hasText: CHAT_TAB }).filter({ hasNotText: /\(branch\)|Reply to/ }).first();
  const markdownFiles = () => readdirSync(e.s.paths.workspace).filter((f) => f.endsWith('.md'));

  it('filters the chats and clears the filter from the title bar', async () => {
    await e.wb.runCommand('Model Gateway: Focus on Chats View');
    await chatRow(CHAT_TAB).first().waitFor({ timeout: WAIT_MS });
    await sideBarView(e.wb, 'Chats').locator('.pane-header').hover();
    await viewTitleAction(e.wb, 'Filter Chats…').first().click();
    await e.wb.answerInput('zebra-that-no-chat-mentions', 'Filter Chats');
    await chatRow(CHAT_TAB).first().waitFor({ state: 'detached', timeout: WAIT_MS });
    await e.wb.runCommand('Model Gateway: Filter Chats…');
    await e.wb.answerInput('table code', 'Filter Chats');
    await chatRow(CHAT_TAB).first().waitFor({ timeout: WAIT_MS });
    await sideBarView(e.wb, 'Chats').locator('.pane-header').hover();
    await viewTitleAction(e.wb, 'Clear Chats Filter').first().click();
    await until(async () => !(await e.wb.paletteOffers('Model Gateway: Clear Chats Filter')), 'Clear Chats Filter to leave the palette');
  });

  it('branches a chat at a reply it picks from the chat menu, and the branch opens', async () => {
    const before = await rows().count();
    await rowMenu(e.wb, chatRow(CHAT_TAB).first(), 'Branch Here…');
    // The chat holds every earlier flow's turns, more than the list draws at once: filter down to the first reply.
    await e.wb.quickInputBox().fill('2. model-5.2');
    await e.wb.pick(/^2\. model-5\.2: /);
    await branchRow().waitFor({ timeout: WAIT_MS });
    assert.equal(await rows().count(), before + 1);
    await e.wb.page.locator('.tabs-container .tab', { hasText: '(branch)' }).first().waitFor({ timeout: WAIT_MS });
    // Two chats may show at once: the branch is the one holding the first exchange only.
    await until(async () => {
      for (const frame of e.wb.page.frames()) {
        if (frame.isDetached() || !(await frame.locator(COMPOSER).isVisible().catch(() => false))) continue;
        const [users, replies] = await Promise.all([frame.locator('article.user-turn').count(), frame.locator('article.assistant-turn').count()]);
        if (users === 1 && replies === 1) return true;
      }
      return false;
    }, 'the branch to hold the first exchange only');
  });

  it('renames the branch from its inline button and asks the model for a title from its menu', async () => {
    await rowAction(branchRow(), 'Rename Chat…');
    await e.wb.answerInput('Branch under test (branch)', 'Rename Chat');
    await chatRow('Branch under test').first().waitFor({ timeout: WAIT_MS });
    const requests = e.s.sim.log.length;
    await rowMenu(e.wb, branchRow(), 'Generate Title');
    await e.s.sim.waitForLog((entry) => {
      const messages = (entry.body as { messages?: Array<{ role: string; content: string }> } | undefined)?.messages;
      return entry.path === '/v1/chat/completions' && messages?.[0]?.role === 'system' && TITLE_INSTRUCTION.test(messages[0].content);
    }, WAIT_MS);
    assert.ok(e.s.sim.log.length > requests);
    await titledRow().waitFor({ timeout: WAIT_MS });
    await chatRow('Branch under test').first().waitFor({ state: 'detached', timeout: WAIT_MS });
    await e.wb.screenshot('chats-view');
  });

  it('exports a chat to Markdown from its menu', async () => {
    const before = markdownFiles();
    await rowMenu(e.wb, firstChat(), 'Export Chat to Markdown…');
    const input = e.wb.quickInputBox();
    await until(async () => /\.md$/.test(await input.inputValue()), 'the proposed file name');
    // The chat's own name is taken by Export Chat earlier in the flow: a new name, so nothing asks to replace it.
    await input.fill(join(e.s.paths.workspace, 'chat-from-the-chats-view.md'));
    await input.press('Enter');
    await e.wb.toast(/Chat exported to/).first().waitFor({ timeout: WAIT_MS });
    assert.deepEqual(markdownFiles().filter((f) => !before.includes(f)), ['chat-from-the-chats-view.md']);
    assert.match(readFileSync(join(e.s.paths.workspace, 'chat-from-the-chats-view.md'), 'utf8'), /Compare the models in a table/);
    await e.wb.closeToasts();
  });

  it('deletes the branch after asking, undoes it, deletes it again; a click opens the first chat', async () => {
    const title = ((await titledRow().locator('.label-name').first().innerText()) ?? '').trim();
    await rowAction(titledRow(), 'Delete Chat…');
    await e.wb.page.locator('.monaco-dialog-box', { hasText: 'Delete the chat' }).waitFor({ timeout: WAIT_MS });
    await e.wb.dialogButton('Delete');
    await chatRow(title).first().waitFor({ state: 'detached', timeout: WAIT_MS });
    await e.wb.toastAction(/Deleted the chat/, 'Undo');
    await chatRow(title).first().waitFor({ timeout: WAIT_MS });
    await e.wb.closeToasts();
    await rowAction(chatRow(title).first(), 'Delete Chat…');
    await e.wb.dialogButton('Delete');
    await chatRow(title).first().waitFor({ state: 'detached', timeout: WAIT_MS });
    await e.wb.closeToasts();
    await firstChat().click();
    const tab = e.wb.page.locator('.tabs-container .tab.active', { hasText: CHAT_TAB });
    await tab.first().waitFor({ timeout: WAIT_MS });
    await until(async () => (await (await e.chat.assistantTurns()).count()) > 1, 'the first chat, with all its replies');
  });
});
