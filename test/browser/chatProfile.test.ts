// The chat's profile in its header: hidden while there is one profile, then a button named after the profile, in the
// theme's badge colours, reachable by keyboard, that asks the host to change it (the page never sets it itself).
import assert from 'node:assert/strict';
import { chatBundle } from './chatBundle';
import { openChat, posted, receive } from './chatPage';
import { chatCss } from './harness';
import { useSuitePage } from './suitePage';

const INIT = {
  type: 'init',
  sessionId: 's1',
  title: 'Under a profile',
  settings: { model: 'model-k3', systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false },
  turns: [],
  models: { models: ['model-k3'], loading: false },
};

describe('chat view in Chromium: the chat profile in the header', function () {
  this.timeout(30_000);
  const suite = useSuitePage(undefined, { body: '', script: chatBundle, styles: `${chatCss()}\n:root { --vscode-badge-background: rgb(4, 5, 6); --vscode-badge-foreground: rgb(7, 8, 9); }` });

  it('names the profile, in the theme colours, and asks the host to change it from the keyboard', async () => {
    const page = suite.page;
    await openChat(page, INIT, { type: 'profile', name: '' });
    const chip = page.locator('button.profile-chip');
    assert.equal(await chip.isHidden(), true, 'hidden while Default is the only profile');
    await receive(page, { type: 'profile', name: 'Work' });
    const button = page.getByRole('button', { name: /runs under the profile "Work"/ });
    await button.waitFor();
    assert.equal((await button.textContent())?.trim(), 'Work');
    assert.deepEqual(await button.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]), ['rgb(4, 5, 6)', 'rgb(7, 8, 9)']);
    await button.focus();
    await page.keyboard.press('Enter');
    assert.deepEqual((await posted(page)).filter((m) => m.type === 'changeProfile' || m.type === 'refused'), [{ type: 'changeProfile' }]);
  });
});
