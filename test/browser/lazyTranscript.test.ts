// A long chat opened in the chat view (ChatApp) in Chromium: the replies render lazily (the last screen at once, the
// rest when scrolled to or in idle time), and end with the DOM of rendering them all at once.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { generateTranscript } from '../../bench/render/corpus';
import { chatBundle } from './chatBundle';
import { chatCss } from './harness';
import { useSuitePage } from './suitePage';

interface PageState {
  posted: Array<{ type: string; turnId?: string; action?: string; code?: string }>;
}
type ChatWindow = {
  Chat: typeof import('../../src/webview/chat/app');
  state: PageState;
  app: InstanceType<typeof import('../../src/webview/chat/app').ChatApp>;
};

/**
 * A fresh chat view given the chat `turns`; `idle: false` takes idle time away (only scrolling renders then), 'held'
 * keeps idle callbacks until releaseIdle() (so what the open did by itself can be looked at, however fast idle time
 * would have rendered the rest).
 */
async function openChat(page: Page, turns: unknown[], history: 'lazily' | 'at once', idle: boolean | 'held' = true): Promise<void> {
  await page.evaluate(
    ({ turns, history, idle }) => {
      const w = window as unknown as ChatWindow & { realIdle?: typeof requestIdleCallback; heldIdle?: IdleRequestCallback[] };
      w.realIdle ??= window.requestIdleCallback;
      w.heldIdle = [];
      const held = w.heldIdle;
      window.requestIdleCallback = idle === 'held' ? (callback) => held.push(callback) : idle ? w.realIdle : () => 0;
      document.body.replaceChildren();
      const root = document.body.appendChild(document.createElement('div'));
      root.id = 'app';
      w.state = { posted: [] };
      w.app = new w.Chat.ChatApp(root, { post: (m) => w.state.posted.push(m as PageState['posted'][number]), setState: () => undefined }, { history });
      const settings = { model: 'text-large', systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false };
      w.app.receive({ type: 'init', sessionId: 's1', title: 'Long chat', settings, turns, models: { models: ['text-large'], loading: false } });
    },
    { turns, history, idle },
  );
}

/** Gives the idle callbacks held since openChat(…, 'held') to the browser, and idle time back. */
function releaseIdle(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = window as unknown as { realIdle: typeof requestIdleCallback; heldIdle: IdleRequestCallback[] };
    window.requestIdleCallback = w.realIdle;
    for (const callback of w.heldIdle.splice(0)) w.realIdle(callback);
  });
}

/** The transcript without the marks of lazy rendering (content-visibility class, size estimates). */
function transcriptHtml(page: Page): Promise<string> {
  return page.evaluate(() =>
    document
      .querySelector('.transcript')!
      .innerHTML.replace(/ md-lazy"/g, '"')
      .replace(/ style="contain-intrinsic-size: auto [\d.]+px;"/g, ''),
  );
}

/**
 * Replies whose markdown has not been rendered yet: they hold a placeholder height, or their message is not even
 * built (the older turns of an opened chat are built after its last screens).
 */
function unrendered(page: Page, turns: Array<{ id: string; role: string }>): Promise<string[]> {
  const replies = turns.filter((turn) => turn.role === 'assistant').map((turn) => turn.id);
  return page.evaluate(
    (ids) =>
      ids.filter((id) => {
        const turn = document.querySelector<HTMLElement>(`.assistant-turn[data-turn-id="${id}"]`);
        return !turn || turn.style.minHeight !== '';
      }),
    replies,
  );
}

const frames = (page: Page, count: number) =>
  page.evaluate(async (n) => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
  }, count);

describe('long chat in the chat view in Chromium (lazy rendering)', function () {
  this.timeout(60_000);
  const suite = useSuitePage(undefined, { body: '', script: chatBundle, styles: chatCss() + '#app { height: 600px; }' });
  // The last replies short, so that the last screen holds several.
  const turns = generateTranscript(60, 240_000, 7).map((turn, i) => (i >= 54 && turn.role === 'assistant' ? { ...turn, content: turn.content.slice(0, 300) } : turn));

  it('shows the last screen at once, renders the rest in idle time, and ends with the DOM of rendering all at once', async () => {
    await openChat(suite.page, turns, 'at once');
    const reference = await transcriptHtml(suite.page);
    assert.deepEqual(await unrendered(suite.page, turns), []);

    await openChat(suite.page, turns, 'lazily', 'held');
    const pending = await unrendered(suite.page, turns);
    assert.ok(pending.length > 20, `most replies wait: ${pending.length}`);
    const onScreen = await suite.page.evaluate(() => {
      const view = document.querySelector('.transcript')!.getBoundingClientRect();
      return Array.from(document.querySelectorAll<HTMLElement>('.assistant-turn'))
        .filter((turn) => {
          const box = turn.getBoundingClientRect();
          return box.bottom > view.top && box.top < view.bottom;
        })
        .map((turn) => turn.dataset.turnId!);
    });
    assert.ok(onScreen.includes('a59') && onScreen.length >= 2, JSON.stringify(onScreen));
    assert.deepEqual(onScreen.filter((id) => pending.includes(id)), [], 'every reply on the last screen is rendered at once');
    await releaseIdle(suite.page);
    await suite.page.evaluate(() => (window as unknown as ChatWindow).app.whenHistoryRendered());
    assert.deepEqual(await unrendered(suite.page, turns), []);
    const html = await transcriptHtml(suite.page);
    let at = 0;
    while (at < html.length && html[at] === reference[at]) at++;
    assert.equal(html.slice(at - 200, at + 200), reference.slice(at - 200, at + 200), 'same DOM as rendering all at once');
  });

  it('renders a reply when it is scrolled into view, with no idle time at all', async () => {
    await openChat(suite.page, turns, 'lazily', false);
    await frames(suite.page, 3);
    const before = await unrendered(suite.page, turns);
    assert.ok(before.includes('a1') && before.includes('a29'), JSON.stringify(before));
    await suite.page.evaluate(() => (document.querySelector('.transcript') as HTMLElement).scrollTo(0, 0));
    await frames(suite.page, 6);
    const after = await unrendered(suite.page, turns);
    assert.ok(!after.includes('a1'), 'the first reply rendered once scrolled to');
    assert.ok(after.includes('a29'), 'a reply far from the viewport still waits');
    const firstReply = await suite.page.evaluate(() => document.querySelector('[data-turn-id="a1"] .content')!.textContent!.length);
    assert.ok(firstReply > 100, `first reply has its text: ${firstReply}`);
  });

  it('builds the older messages after the last screens; usage counts them, and removing turns counts them', async () => {
    await openChat(suite.page, turns, 'at once');
    const usage = await suite.page.evaluate(() => document.querySelector('.session-usage')!.textContent);
    await openChat(suite.page, turns, 'lazily', false);
    const page = suite.page;
    const built = await page.evaluate(() => document.querySelectorAll('.transcript .turn').length);
    assert.ok(built >= 2 && built < turns.length / 2, `messages built at once: ${built}`);
    assert.equal(await page.evaluate(() => document.querySelector('.session-usage')!.textContent), usage);
    await page.evaluate(() => (window as unknown as ChatWindow).app.receive({ type: 'turnsRemoved', fromIndex: 10 }));
    const ids = await page.evaluate(() => Array.from(document.querySelectorAll<HTMLElement>('.transcript .turn'), (turn) => turn.dataset.turnId));
    assert.deepEqual(ids, turns.slice(0, 10).map((turn) => turn.id));
    assert.equal(await page.evaluate(() => document.querySelector('.older-turns')), null, 'no spacer left');
  });

  it('copy, edit and code actions work on replies that rendered lazily, and their text is there for find-in-page', async () => {
    await openChat(suite.page, turns, 'lazily');
    const page = suite.page;
    // Before rendering (as soon as its message is built): copying the whole reply needs only its id.
    await page.waitForSelector('[data-turn-id="a1"]', { state: 'attached' });
    await page.evaluate(() => document.querySelector<HTMLElement>('[data-turn-id="a1"] button[aria-label="Copy reply"]')!.click());
    await page.evaluate(() => (window as unknown as ChatWindow).app.whenHistoryRendered());
    await page.evaluate(() => (document.querySelector('.transcript') as HTMLElement).scrollTo(0, 0));
    await page.locator('[data-turn-id="u0"] button[aria-label="Edit and resend"]').click();
    const firstCode = page.locator('.assistant-turn .code-block').first();
    await firstCode.scrollIntoViewIfNeeded();
    await firstCode.locator('button[data-action="copy"]').click();
    const state = await page.evaluate(() => (window as unknown as ChatWindow).state);
    assert.deepEqual(state.posted.find((m) => m.type === 'copyTurn'), { type: 'copyTurn', turnId: 'a1' });
    const codeAction = state.posted.find((m) => m.type === 'codeAction');
    assert.equal(codeAction?.action, 'copy');
    assert.ok((codeAction?.code ?? '').length > 20, JSON.stringify(codeAction));
    const composer = await page.evaluate(() => (document.querySelector('textarea.composer-input') as HTMLTextAreaElement).value);
    assert.equal(composer, (turns[0] as { content: string }).content);

    // Find-in-page searches the DOM's text (content-visibility: auto leaves skipped messages findable): every reply's
    // text is there once rendered.
    const texts = await page.evaluate(() => Array.from(document.querySelectorAll('.assistant-turn .content'), (box) => box.textContent ?? ''));
    const replies = turns.filter((turn) => turn.role === 'assistant');
    assert.equal(texts.length, replies.length);
    replies.forEach((reply, i) => {
      const phrase = reply.content.split('\n').find((line) => /^[A-Z][a-z]+ [a-z]+ [a-z]+ [a-z]+/.test(line));
      if (phrase) assert.ok(texts[i].includes(phrase.split(' ').slice(0, 4).join(' ')), `reply ${i} has its text`);
    });
  });
});
