// Inline media in the chat view obeys the page's CSP (chat/hub/csp.ts, as the panel builds it): the gateway's own
// result loads; an image that model text points at is not loaded (it stays a plain link), and a media source from any
// other origin is refused by the browser and shown as not loaded, with Retry, never as a broken element. "Expired"
// with Regenerate only when the host says the extension found the link gone.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { listenOnLoopback } from '../util/loopbackServer';
import { chatCsp } from '../../src/chat/core/hub/csp';
import { encodePng } from '../simulator/png';
import { chatBundle } from './chatBundle';
import { useSuitePage } from './suitePage';
import { takePageProblems } from './harness';

interface Origin {
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

async function imageServer(): Promise<Origin> {
  const png = encodePng(4, 3, new Uint8Array(4 * 3 * 3).fill(200));
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end(png);
  });
  return { ...(await listenOnLoopback(server)), requests };
}

// Both servers exist before the page is served: the CSP names the gateway's exact origin.
const origins = { gateway: imageServer(), model: imageServer() };


describe('chat hub in Chromium: inline media under the CSP, and the slash menu', function () {
  this.timeout(30_000);
  let gateway: Origin;
  let model: Origin;
  const csp = { value: '' };
  const suite = useSuitePage(undefined, {
    body: '',
    script: async () => {
      [gateway, model] = await Promise.all([origins.gateway, origins.model]);
      csp.value = chatCsp({ nonce: '{nonce}', cspSource: "'self'", mediaOrigins: [gateway.origin] });
      return chatBundle();
    },
    get csp() {
      return csp.value;
    },
  });

  after(async () => {
    for (const o of await Promise.all([origins.gateway, origins.model])) await o.close();
  });

  it('loads the gateway\'s own result, and neither an image in model text nor media from another origin', async () => {
    const page = suite.page;
    const text = `Here is a chart: ![chart](${model.origin}/from-markdown.png) and <img src="${model.origin}/from-html.png">`;
    const turn = (id: string, src: string) => ({ id, role: 'media', createdAt: 3, kind: 'image', content: '/image a chart', prompt: 'a chart', model: 'model-image-1.0', state: 'complete', src, contentType: 'image/png', url: src });
    // A result shown from the gateway's link, as the host sends it while or after checking that link: no source.
    const checked = (id: string) => {
      const { src: _src, ...rest } = turn(id, `${gateway.origin}/${id}.png?sig=1`);
      return rest;
    };
    const init = {
      type: 'init',
      sessionId: 's1',
      title: 'Media',
      settings: { model: 'model-k3', systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false },
      turns: [
        { id: 'u1', role: 'user', createdAt: 1, content: 'Draw me a chart' },
        { id: 'a1', role: 'assistant', createdAt: 2, model: 'model-k3', content: text, reasoning: '', refusal: '', toolCalls: [], status: 'complete', finishReason: 'stop', usage: null },
        turn('m1', `${gateway.origin}/result.png?sig=1`),
        turn('m2', `${model.origin}/not-from-the-gateway.png`),
        { ...checked('m3'), linkState: 'expired', linkProblem: '127.0.0.1 answered HTTP 410: the link no longer works.' },
        { ...checked('m4'), linkState: 'unreachable', linkProblem: '127.0.0.1 answered HTTP 503.' },
        { ...checked('m5'), linkState: 'checking' },
      ],
      models: { models: ['model-k3'], loading: false },
    };
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/.test(message.text())) refused.push(message.text());
    });
    await page.evaluate((message) => {
      const w = window as unknown as { Chat: typeof import('../../src/webview/chat/app'); posted: unknown[]; states: unknown[] };
      w.posted = [];
      w.states = [];
      const root = document.createElement('div');
      document.body.append(root);
      const app = new w.Chat.ChatApp(root, { post: (m) => w.posted.push(m), setState: (state) => w.states.push(state) });
      app.receive(message);
    }, init);

    const result = page.locator('[data-turn-id="m1"] img.media-image');
    await result.waitFor();
    await page.waitForFunction(() => (document.querySelector('[data-turn-id="m1"] img') as HTMLImageElement | null)?.complete === true);
    assert.equal(await result.evaluate((img: HTMLImageElement) => img.naturalWidth), 4, 'the gateway\'s result is shown');
    assert.deepEqual(gateway.requests, ['/result.png?sig=1']);

    // The other origin's media turn: refused by the CSP, shown as not loaded with Retry (the host checks the link
    // again), never as expired: the page's own failure is no proof the result is gone, and Regenerate costs money.
    const notLoaded = page.locator('[data-turn-id="m2"] .media-unreachable');
    await notLoaded.waitFor();
    assert.match((await notLoaded.textContent()) ?? '', /did not load here/);
    assert.equal(await page.locator('[data-turn-id="m2"] img').count(), 0, 'no broken image left behind');
    assert.equal(await page.locator('[data-turn-id="m2"]').getByRole('button', { name: 'Regenerate' }).count(), 0, 'no paid regeneration offered');
    await notLoaded.getByRole('button', { name: 'Retry' }).click();
    const posted = () => page.evaluate(() => (window as unknown as { posted: unknown[] }).posted);
    assert.deepEqual((await posted()).at(-1), { type: 'mediaAction', turnId: 'm2', action: 'retry' });

    // Found gone by the extension: expired, with why, and Regenerate.
    const expired = page.locator('[data-turn-id="m3"] .media-expired');
    assert.match((await expired.textContent()) ?? '', /expired: .*HTTP 410/);
    await expired.getByRole('button', { name: 'Regenerate' }).click();
    assert.deepEqual((await posted()).at(-1), { type: 'mediaAction', turnId: 'm3', action: 'regenerate' });
    // Unreachable: Retry, no Regenerate anywhere on the card; checking: neither.
    const unreachable = page.locator('[data-turn-id="m4"] .media-unreachable');
    assert.match((await unreachable.textContent()) ?? '', /could not be reached: .*HTTP 503/);
    assert.equal(await page.locator('[data-turn-id="m4"]').getByRole('button', { name: 'Regenerate' }).count(), 0);
    await unreachable.getByRole('button', { name: 'Retry' }).click();
    assert.deepEqual((await posted()).at(-1), { type: 'mediaAction', turnId: 'm4', action: 'retry' });
    assert.match((await page.locator('[data-turn-id="m5"] .media-checking').textContent()) ?? '', /Checking/);
    assert.equal(await page.locator('[data-turn-id="m5"] button').filter({ hasText: /Regenerate|Retry/ }).count(), 0);
    assert.equal(await page.locator('[data-turn-id="m1"]').getByRole('button', { name: 'Regenerate' }).count(), 0, 'a result that shows is not offered again');

    // Model text: the image is a plain link, never an element.
    assert.equal(await page.locator('[data-turn-id="a1"] img').count(), 0);
    assert.ok((await page.locator(`[data-turn-id="a1"] a[data-href="${model.origin}/from-markdown.png"]`).count()) === 1 || (await page.locator('[data-turn-id="a1"]').textContent())?.includes('from-markdown.png'));
    await page.waitForTimeout(200);
    assert.deepEqual(model.requests, [], 'nothing was fetched from the origin the model text or a foreign source named');
    assert.ok(refused.some((line) => line.includes('not-from-the-gateway.png')), 'the browser refused it by the CSP');
    // That refusal is this test's point; anything else the page reported still fails it.
    const problems = takePageProblems();
    assert.deepEqual(problems.filter((p) => !(p.kind === 'CSP violation' && p.text.includes('not-from-the-gateway.png'))), []);
  });

  it('the slash menu completes with the keyboard, with combobox and listbox roles, and a bad command is kept, not sent', async () => {
    const page = suite.page;
    const input = page.locator('textarea.composer-input').first();
    await input.focus();
    await input.fill('');
    await page.keyboard.type('/');
    const menu = page.getByRole('listbox', { name: 'Commands' });
    await menu.waitFor();
    assert.deepEqual(await menu.getByRole('option').allTextContents(), ['/image <prompt>Generate an image with the chat’s image model', '/video <prompt>Submit a video job; its status shows here and in Video Jobs', '/speak [text]Read the last reply aloud (or the text given)', '/transcribeTranscribe the attached audio files into the context of your next message']);
    assert.equal(await input.getAttribute('role'), 'combobox');
    assert.equal(await input.getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('ArrowDown');
    const active = await input.getAttribute('aria-activedescendant');
    assert.equal(await page.locator(`#${active}`).getAttribute('aria-selected'), 'true');
    assert.match((await page.locator(`#${active}`).textContent()) ?? '', /^\/video/);
    await page.keyboard.press('Enter');
    assert.equal(await input.inputValue(), '/video ');
    assert.equal(await menu.isHidden(), true);
    assert.equal(await input.getAttribute('aria-expanded'), 'false');

    await input.fill('');
    await page.keyboard.type('/sp');
    await page.keyboard.press('Tab');
    assert.equal(await input.inputValue(), '/speak ');
    await input.fill('');
    await page.keyboard.type('/');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Escape');
    assert.equal(await menu.isHidden(), true);
    assert.equal(await input.inputValue(), '/', 'Escape only closes the menu');

    const before = (await page.evaluate(() => (window as unknown as { posted: unknown[] }).posted)).length;
    await input.fill('/paint a cat');
    await page.keyboard.press('Enter');
    const problem = page.getByRole('alert').filter({ hasText: 'Unknown command /paint' });
    await problem.waitFor();
    assert.equal(await input.inputValue(), '/paint a cat', 'what was typed is kept');
    const states = await page.evaluate(() => (window as unknown as { states: unknown[] }).states);
    assert.deepEqual(states.at(-1), { sessionId: 's1', draft: '/paint a cat' }, 'and kept in the webview state, for a page rebuilt with a new media origin');
    const posted = await page.evaluate(() => (window as unknown as { posted: Array<{ type: string }> }).posted);
    assert.deepEqual(posted.slice(before).filter((m) => m.type === 'send'), []);
    await input.fill('/image a red fox');
    await page.keyboard.press('Enter');
    const sent = await page.evaluate(() => (window as unknown as { posted: Array<{ type: string; text?: string }> }).posted);
    assert.deepEqual(sent.at(-1), { type: 'send', requestId: 1, text: '/image a red fox' });
    assert.equal(await input.inputValue(), '');
  });

  it("a failed media turn shows its advice as buttons, as the reply's error card does, and a click names the turn and the action", async () => {
    const page = suite.page;
    const failed = { id: 'mf1', role: 'media', createdAt: 4, kind: 'video', content: '/video a tide', prompt: 'a tide', model: 'model-video-1', state: 'failed', detail: 'API key missing or invalid for the gateway.', actions: ['Set API Key', 'Open Logs'] };
    const init = {
      type: 'init',
      sessionId: 's2',
      title: 'Media advice',
      settings: { model: 'model-k3', systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false },
      turns: [failed, { ...failed, id: 'mf2', actions: undefined, detail: 'It failed.' }],
      models: { models: ['model-k3'], loading: false },
    };
    await page.evaluate((message) => {
      const w = window as unknown as { Chat: typeof import('../../src/webview/chat/app'); advicePosted: unknown[] };
      w.advicePosted = [];
      const root = document.createElement('div');
      root.id = 'advice-chat';
      document.body.append(root);
      const app = new w.Chat.ChatApp(root, { post: (m) => w.advicePosted.push(m), setState: () => undefined });
      app.receive(message);
    }, init);
    const card = page.locator('#advice-chat [data-turn-id="mf1"] .media-status');
    await card.waitFor();
    assert.match((await card.textContent()) ?? '', /API key missing/);
    assert.deepEqual(await card.getByRole('button').allTextContents(), ['Set API Key', 'Open Logs', 'Regenerate']);
    assert.deepEqual(await page.locator('#advice-chat [data-turn-id="mf2"] .media-status').getByRole('button').allTextContents(), ['Regenerate'], 'no advice, no buttons');
    await card.getByRole('button', { name: 'Open Logs' }).click();
    await card.getByRole('button', { name: 'Set API Key' }).click();
    const posted = await page.evaluate(() => (window as unknown as { advicePosted: unknown[] }).advicePosted);
    assert.deepEqual(posted.slice(-2), [
      { type: 'errorAction', turnId: 'mf1', index: 1 },
      { type: 'errorAction', turnId: 'mf1', index: 0 },
    ]);
    assert.deepEqual(takePageProblems(), []);
  });
});
