// The chat view itself (ChatApp, as the webview runs it) in Chromium, with a stand-in for VS Code's webview shell:
// the shell opens any clicked anchor that has an href (its pre/index.html does this for trusted clicks on the
// window), so a link must reach the host exactly once, as the chat's `openLink`, and never the shell.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { chatBundle } from './chatBundle';
import { useSuitePage } from './suitePage';

const SETTINGS = { model: 'model-k3', systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false };

function init(content: string, models: string[] = ['model-k3']): unknown {
  return {
    type: 'init',
    sessionId: 's1',
    title: 'Links',
    settings: SETTINGS,
    turns: [
      { id: 'u1', role: 'user', createdAt: 1, content: 'Where are the docs?' },
      { id: 'a1', role: 'assistant', createdAt: 2, model: 'model-k3', content, reasoning: '', refusal: '', toolCalls: [], status: 'complete', finishReason: 'stop', usage: null },
    ],
    models: { models, loading: false },
  };
}

interface PageState {
  posted: Array<{ type: string; href?: string; reason?: string }>;
  shellOpened: string[];
}

/** Loads a fresh chat view with the shell stand-in, and gives it `message`. */
async function openChat(page: Page, message: unknown): Promise<void> {
  await page.evaluate((first) => {
    const w = window as unknown as { Chat: typeof import('../../src/webview/chat/app'); state: PageState; app: { receive(m: unknown): void } };
    document.body.replaceChildren();
    const root = document.createElement('div');
    document.body.append(root);
    w.state = { posted: [], shellOpened: [] };
    if (!(window as unknown as { shellInstalled?: boolean }).shellInstalled) {
      (window as unknown as { shellInstalled?: boolean }).shellInstalled = true;
      window.addEventListener('click', (event) => {
        if (!event.isTrusted) return;
        for (const node of event.composedPath()) {
          if (node instanceof HTMLAnchorElement && node.href) {
            w.state.shellOpened.push(node.href);
            event.preventDefault();
            return;
          }
        }
      });
    }
    w.app = new w.Chat.ChatApp(root, { post: (m) => w.state.posted.push(m as PageState['posted'][number]), setState: () => undefined });
    w.app.receive(first);
  }, message);
}

function pageState(page: Page): Promise<PageState> {
  return page.evaluate(() => (window as unknown as { state: PageState }).state);
}

describe('chat view in Chromium', function () {
  this.timeout(30_000);
  const suite = useSuitePage(undefined, { body: '', script: chatBundle });

  it('a click on a link sends exactly one openLink to the host, and the webview shell gets nothing to open', async () => {
    await openChat(suite.page, init('See [the docs](https://example.com/docs) and https://example.com/bare for more.'));
    const link = suite.page.locator('a[data-href="https://example.com/docs"]');
    await link.waitFor();
    const url = suite.page.url();
    await link.click();
    await suite.page.locator('a[data-href="https://example.com/bare"]').click({ button: 'middle' });
    await suite.page.waitForTimeout(100);
    const state = await pageState(suite.page);
    assert.deepEqual(
      state.posted.filter((m) => m.type === 'openLink'),
      [{ type: 'openLink', href: 'https://example.com/docs' }],
    );
    assert.deepEqual(state.shellOpened, [], 'the shell saw no anchor with an href');
    assert.equal(suite.page.url(), url, 'no navigation');
    assert.equal(await link.getAttribute('href'), null);
  });

  it('a link is reachable and opened with the keyboard', async () => {
    await openChat(suite.page, init('Read [this](https://example.com/kbd).'));
    const link = suite.page.locator('a[data-href="https://example.com/kbd"]');
    await link.waitFor();
    await link.focus();
    assert.equal(await suite.page.evaluate(() => document.activeElement?.getAttribute('data-href')), 'https://example.com/kbd');
    assert.equal(await link.getAttribute('role'), 'link');
    await suite.page.keyboard.press('Enter');
    const state = await pageState(suite.page);
    assert.deepEqual(
      state.posted.filter((m) => m.type === 'openLink'),
      [{ type: 'openLink', href: 'https://example.com/kbd' }],
    );
    assert.deepEqual(state.shellOpened, []);
  });

  it('a refused message shows an error with Reload Chat instead of a blank panel, and tells the host', async () => {
    const tooMany = Array.from({ length: 1001 }, (_, i) => `model-${i}`);
    await openChat(suite.page, init('never shown', tooMany));
    const banner = suite.page.locator('.protocol-error');
    await banner.waitFor();
    assert.match((await banner.textContent()) ?? '', /could not show an update from VS Code \(init: bad models\)/);
    let state = await pageState(suite.page);
    assert.deepEqual(
      state.posted.filter((m) => m.type === 'refused'),
      [{ type: 'refused', reason: 'init: bad models' }],
    );
    await banner.getByRole('button', { name: 'Reload Chat' }).click();
    state = await pageState(suite.page);
    assert.equal(state.posted.at(-1)?.type, 'resync');
    await suite.page.evaluate((message) => (window as unknown as { app: { receive(m: unknown): void } }).app.receive(message), init('Back again.'));
    assert.equal(await banner.isHidden(), true, 'a good init clears the error');
    await suite.page.locator('text=Back again.').waitFor();
  });
});
