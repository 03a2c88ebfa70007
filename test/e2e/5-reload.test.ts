// After a reload: the chat panel and the job list are still there, and the gateway's chat models are in VS
// Code's own chat model picker before any request is made (they were remembered from the last model list).
import * as assert from 'node:assert/strict';
import { CHAT_TAB, ChatView } from './harness/chat';
import { session, type E2ESession } from './harness/session';
import { videoRow } from './harness/views';
import { until, WAIT_MS, Workbench } from './harness/workbench';

describe('e2e 5: reload', function () {
  this.timeout(6 * WAIT_MS);
  let s: E2ESession;
  let wb: Workbench;
  let chat: ChatView;
  let userTurns: number;
  let logAtReload: number;

  before(async () => {
    s = await session();
    wb = new Workbench(s);
    chat = new ChatView(wb);
  });

  it('reloads the window with a chat open and a finished job', async () => {
    userTurns = await (await chat.userTurns()).count();
    // The chat stays open in its group behind a file, as a tab the user comes back to.
    await wb.page.locator('.tabs-container .tab', { hasText: CHAT_TAB }).first().click();
    await wb.openFile('hello.py', 'def greet');
    await wb.page.locator('.activitybar .action-item a[aria-label^="Model Gateway"]').click();
    await videoRow(wb, 'A paper boat').first().waitFor({ timeout: WAIT_MS });
    logAtReload = s.sim.log.length;
    await wb.reload();
  });

  it('still has the job list and the chat tab', async () => {
    await until(async () => /completed/.test(await videoRow(wb, 'A paper boat').first().innerText().catch(() => '')), 'the finished job after the reload');
    await wb.page.locator('.tabs-container .tab', { hasText: CHAT_TAB }).first().waitFor({ timeout: WAIT_MS });
  });

  it("offers the gateway's chat models in VS Code's chat model picker without a request", async () => {
    await wb.runCommand('Chat: Open Chat');
    const picker = wb.page.locator('.interactive-input-part .chat-input-picker-label');
    const current = await until(async () => (await picker.allInnerTexts()).find((t) => /^model-(k3|5\.2)$/.test(t.trim())), "a gateway model in VS Code's chat");
    await wb.page.locator('.interactive-input-part .chat-input-picker-label', { hasText: current.trim() }).click();
    const items = wb.page.locator('.action-widget .monaco-list-row, .action-widget [role="menuitemcheckbox"], .action-widget [role="option"]');
    await until(async () => (await items.allInnerTexts()).some((t) => /Model Gateway/.test(t)), 'the picker to list the gateway');
    await wb.screenshot('vscode-chat-model-picker');
    const listed = (await items.allInnerTexts()).join('\n');
    assert.match(listed, /model-k3|model-5\.2/);
    assert.doesNotMatch(listed, /model-1\.0-video-edit/, 'the video model is not a chat model');
    await wb.page.keyboard.press('Escape');
    const sent = s.sim.log.slice(logAtReload).map((e) => `${e.method} ${e.path}`);
    assert.deepEqual(sent, [], 'nothing was asked of the gateway since the reload');
    await wb.runCommand('View: Close Secondary Side Bar');
  });

  it('restores the chat panel with its conversation when its tab is opened', async () => {
    await wb.page.locator('.tabs-container .tab', { hasText: CHAT_TAB }).first().click();
    await until(async () => (await (await chat.userTurns()).count()) === userTurns, 'the conversation');
    assert.match(await (await chat.assistantTurns()).first().locator('.content').innerText(), /Reply to/);
  });
});
