// Where the chat puts the keyboard focus when it opens or is rebuilt: in its input when the page has the focus, and
// nowhere while the page lacks it (the chat can finish loading behind the palette or a quick pick, and taking the focus
// then would close that pick).
import assert from 'node:assert/strict';
import { chatBundle } from './chatBundle';
import { openChat } from './chatPage';
import { chatCss } from './harness';
import { useSuitePage } from './suitePage';

const INIT = {
  type: 'init',
  sessionId: 's1',
  title: 'Focus',
  settings: { model: 'model-k3', systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false },
  turns: [],
  models: { models: ['model-k3'], loading: false },
};

describe('chat view in Chromium: where the focus goes when a chat opens', function () {
  this.timeout(30_000);
  const suite = useSuitePage(undefined, { body: '', script: chatBundle, styles: chatCss() });
  const inputFocused = () => suite.page.evaluate(() => document.activeElement?.matches('textarea[aria-label="Message"]') === true);
  const pageHasFocus = (has: boolean) =>
    suite.page.evaluate((value) => {
      (document.activeElement as HTMLElement | null)?.blur();
      Object.defineProperty(document, 'hasFocus', { configurable: true, value: () => value });
    }, has);

  it('puts the focus in the input when the page has it', async () => {
    await pageHasFocus(true);
    await openChat(suite.page, INIT);
    assert.equal(await inputFocused(), true);
  });

  it('takes no focus while the page lacks it', async () => {
    await pageHasFocus(false);
    await openChat(suite.page, INIT);
    assert.equal(await inputFocused(), false, 'a chat loading behind a quick pick leaves the focus where it is');
  });

  for (const has of [true, false]) {
    it(`puts back the draft of a rebuilt page, taking the focus ${has ? 'when the page has it' : 'not while the page lacks it'}`, async () => {
      await pageHasFocus(has);
      await openChat(suite.page, INIT);
      await suite.page.evaluate(() => (window as unknown as { app: { restoreDraft(text: string): void } }).app.restoreDraft('half a question'));
      assert.equal(await suite.page.evaluate(() => document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')?.value), 'half a question');
      assert.equal(await inputFocused(), has);
    });
  }
});
