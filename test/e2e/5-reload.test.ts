// After a reload: the chat panel and the job list are still there, and the gateway's chat models are in VS
// Code's own chat model picker before any request is made (they were remembered from the last model list).
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHAT_TAB } from './harness/chat';

import { videoRow } from './harness/views';
import { useE2E } from './harness/suite';
import { textNow, until, WAIT_MS } from './harness/workbench';

describe('e2e 5: reload', function () {
  // A reload may need a second page load (see Workbench.reload).
  this.timeout(12 * WAIT_MS);
  const e = useE2E('reload', ['chat', 'videos']);
  let userTexts: string[];
  let logAtReload: number;


  it('reloads the window with a chat open and a finished job', async () => {
    await e.chat.showTab();
    userTexts = await e.chat.userTexts();
    assert.ok(userTexts.length >= 2, `the chat has the earlier flows' messages: ${JSON.stringify(userTexts)}`);
    // The chat stays open in its group behind another editor, as a tab the user comes back to: a visible chat
    // would be restored at once and load its model list, and this flow shows that VS Code's chat needs no request.
    // A file of its own (an empty untitled editor would not come back after the reload; one open elsewhere
    // might be revealed there instead).
    writeFileSync(join(e.s.paths.workspace, 'notes.txt'), 'Notes kept beside the chat\n');
    await e.wb.openFile('notes.txt', 'Notes kept');
    await until(async () => !(await e.wb.page.locator('.tabs-container .tab.active', { hasText: CHAT_TAB }).count()), 'the chat tab to be behind the new editor');
    await e.wb.showVideoJobs();
    await videoRow(e.wb, 'A paper boat').first().waitFor({ timeout: WAIT_MS });
    logAtReload = e.s.sim.log.length;
    await e.wb.reload();
  });

  it('still has the job list and the chat tab', async () => {
    await until(async () => /completed/.test(await textNow(videoRow(e.wb, 'A paper boat').first())), 'the finished job after the reload');
    await e.wb.page.locator('.tabs-container .tab', { hasText: CHAT_TAB }).first().waitFor({ timeout: WAIT_MS });
  });

  it("offers the gateway's chat models in VS Code's chat model picker without a request", async () => {
    await e.wb.runCommand('Chat: Open Chat');
    // The model picker: whatever model it shows (VS Code may show none before the user picks one), it is the
    // picker that is not the mode picker.
    const labels = e.wb.page.locator('.interactive-input-part .chat-input-picker-label');
    const picker = await until(async () => {
      for (const label of await labels.all()) if (!/^(Agent|Ask|Edit|Plan)?$/.test((await label.innerText()).trim())) return label;
      return undefined;
    }, "VS Code's chat model picker");
    await picker.click();
    const items = e.wb.page.locator('.action-widget .monaco-list-row, .action-widget [role="menuitemcheckbox"], .action-widget [role="option"]');
    await until(async () => (await items.allInnerTexts()).some((t) => /Model Gateway/.test(t)), 'the picker to list the gateway');
    await e.wb.screenshot('vscode-chat-model-picker');
    const listed = (await items.allInnerTexts()).join('\n');
    assert.match(listed, /model-k3|model-5\.2/);
    assert.doesNotMatch(listed, /model-1\.0-video-edit/, 'the video model is not a chat model');
    await e.wb.page.keyboard.press('Escape');
    const sent = e.s.sim.log.slice(logAtReload).map((e) => `${e.method} ${e.path}`);
    assert.deepEqual(sent, [], 'nothing was asked of the gateway since the reload');
    await e.wb.runCommand('View: Hide Secondary Side Bar');
  });

  it('restores the chat panel with its conversation when its tab is opened', async () => {
    await e.chat.showTab();
    let seen: string[] = [];
    await until(async () => {
      seen = await e.chat.userTexts();
      return JSON.stringify(seen) === JSON.stringify(userTexts);
    }, 'the conversation', WAIT_MS).catch((error: Error) => {
      throw new Error(`${error.message}: before the reload ${JSON.stringify(userTexts)}, now ${JSON.stringify(seen)}`);
    });
    // The first reply is far above the last screen, where a long chat renders only once scrolled to: scroll up.
    const first = (await e.chat.assistantTurns()).first();
    await until(async () => {
      await first.scrollIntoViewIfNeeded();
      return /Reply to/.test(await first.locator('.content').innerText());
    }, 'the first reply, scrolled to');
  });
});
