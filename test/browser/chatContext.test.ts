// The chat view's context bar and compare view in Chromium: chips with tokens and remove, the token meter, the
// overflow warning that holds the message back and offers a trim, `#` completion, a pasted image, and keeping a
// compared reply. What the view posts to the host is recorded.
import assert from 'node:assert/strict';
import { chatBundle } from './chatBundle';
import { useSuitePage } from './suitePage';
import { openChat, posted, receive, type Posted } from './chatPage';

const SETTINGS = { model: 'model-k3', systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false };
const INIT = { type: 'init', sessionId: 's1', title: 'Context', settings: SETTINGS, turns: [], models: { models: ['model-k3', 'model-5.2'], loading: false } };

function context(fields: { baseTokens?: number; window?: number; chips?: unknown[]; warning?: string } = {}): unknown {
  return { type: 'context', context: { chips: [], baseTokens: 0, window: 1000, windowSource: 'setting', warning: '', ...fields } };
}

const CHIP = { id: 'att1', kind: 'text', label: 'a.ts', detail: 'src/a.ts, lines 1–40, typescript', tokens: 420 };

describe('chat context bar in Chromium', function () {
  this.timeout(30_000);
  const suite = useSuitePage(undefined, { body: '', script: chatBundle });

  it('shows each attachment as a chip with its tokens, the total against the window, and removes a chip on request', async () => {
    const page = suite.page;
    await openChat(page, INIT, context({ baseTokens: 80, chips: [CHIP] }));
    const chip = page.locator('.composer .chip[data-attachment-id="att1"]');
    assert.match((await chip.textContent()) ?? '', /a\.ts≈420 tok/);
    assert.equal(await chip.getAttribute('title'), CHIP.detail);
    assert.equal(await page.locator('.context-meter').textContent(), '≈500 / 1,000 tokens');
    await page.locator('.composer-input').fill('abcdefgh');
    assert.equal(await page.locator('.context-meter').textContent(), '≈502 / 1,000 tokens', 'the draft counts as it is typed');
    await chip.getByRole('button', { name: 'Remove a.ts' }).click();
    assert.deepEqual((await posted(page)).filter((m) => m.type === 'removeAttachment'), [{ type: 'removeAttachment', id: 'att1' }]);
  });

  it('holds back a message that would overflow, keeps the text, and offers to trim the largest attachment', async () => {
    const page = suite.page;
    await openChat(page, INIT, context({ baseTokens: 700, chips: [CHIP] }));
    assert.equal(await page.locator('.context-meter.over').count(), 1);
    await page.locator('.composer-input').fill('Summarise it');
    await page.locator('.composer-input').press('Enter');
    assert.equal((await posted(page)).some((m) => m.type === 'send'), false, 'nothing was sent');
    assert.equal(await page.locator('.composer-input').inputValue(), 'Summarise it', 'the text stays in the input');
    const warning = page.locator('.context-warning');
    assert.match((await warning.textContent()) ?? '', /overflow the model's context window by about 123 tokens \(≈1,123 of 1,000\)/);
    await warning.getByRole('button', { name: 'Trim Largest Attachment' }).click();
    assert.equal((await posted(page)).at(-1)?.type, 'trimContext');
    await receive(page, context({ baseTokens: 700, chips: [{ ...CHIP, tokens: 200 }] }));
    assert.equal(await warning.isHidden(), true);
    await page.locator('.composer-input').press('Enter');
    assert.deepEqual((await posted(page)).at(-1), { type: 'send', requestId: 1, text: 'Summarise it' });
  });

  it('a chat longer than the window goes to the host, which offers the ways out; the reply sent without the oldest turns says so', async () => {
    const page = suite.page;
    const question = { id: 'u1', role: 'user', createdAt: 1, content: 'Earlier question' };
    const answer = { id: 'a1', role: 'assistant', createdAt: 2, model: 'model-k3', content: 'Earlier answer', reasoning: '', refusal: '', toolCalls: [], status: 'complete', finishReason: 'stop', usage: null, omittedTurns: 12 };
    await openChat(page, { ...INIT, turns: [question, answer] }, context({ baseTokens: 1200 }));
    assert.equal(await page.locator('.assistant-turn .turn-note').textContent(), "Sent without the 12 oldest turns of the chat: they did not fit the model's context window, so the model did not see them.");
    const warning = page.locator('.context-warning');
    assert.match((await warning.textContent()) ?? '', /press Send to choose between sending only the newest turns that fit and branching a new chat from a summary/);
    assert.doesNotMatch((await warning.textContent()) ?? '', /attachment/, 'no advice about attachments there are not');

    await page.locator('.composer-input').fill('Newest question');
    await page.locator('.composer-input').press('Enter');
    assert.deepEqual((await posted(page)).at(-1), { type: 'send', requestId: 1, text: 'Newest question' }, 'the host decides');
    assert.equal(await page.locator('.composer-input').inputValue(), '', 'the text left with the request');
    const overflow = { action: 'send', omittedTurns: 12, canSummarize: true, total: 1220, window: 1000 };
    await receive(page, { type: 'reply', requestId: 1, reply: { sent: false, why: 'heldBack' } });
    assert.equal(await page.locator('.composer-input').inputValue(), 'Newest question', 'held back: the reply gives it back to the input');
    await receive(page, { type: 'context', context: { chips: [], baseTokens: 1200, window: 1000, windowSource: 'setting', warning: 'Not sent: the chat would overflow the context window of model-k3 (≈1,220 of 1,000 tokens).', overflow } });
    const text = (await warning.textContent()) ?? '';
    assert.match(text, /Send Without the 12 Oldest Turns: the model sees only the newest turns that fit; the 12 oldest turns are not sent, and the reply says so\./);
    assert.match(text, /Branch with a Summary: the chat model summarizes this chat, then a new chat opens with the summary in its input for you to read and edit\. Nothing is sent there until you send it\./);
    await warning.getByRole('button', { name: 'Branch with a Summary…' }).focus();
    await page.keyboard.press('Enter');
    assert.deepEqual((await posted(page)).at(-1), { type: 'resolveOverflow', requestId: 2, choice: 'summary', text: 'Newest question' }, 'reachable by keyboard');
    await warning.getByRole('button', { name: 'Send Without the 12 Oldest Turns' }).click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'resolveOverflow', requestId: 3, choice: 'newest', text: 'Newest question' });
    assert.equal(await page.locator('.composer-input').inputValue(), '', 'the text went with it');
    await receive(page, { type: 'reply', requestId: 3, reply: { sent: true } });
    assert.equal(await page.locator('.composer-input').inputValue(), '', 'sent: it stays gone');

    await receive(page, { type: 'context', context: { chips: [], baseTokens: 1200, window: 1000, windowSource: 'setting', warning: 'Not regenerated: …', overflow: { ...overflow, action: 'regenerate', omittedTurns: 1, canSummarize: false } } });
    assert.equal(await warning.getByRole('button', { name: 'Branch with a Summary…' }).count(), 0);
    await warning.getByRole('button', { name: 'Regenerate Without the Oldest Turn' }).click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'resolveOverflow', requestId: 4, choice: 'newest', text: '' });
    await warning.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'resolveOverflow', requestId: 5, choice: 'cancel', text: '' });
  });

  it('# opens a completion list; Enter picks a source, removes the #word, and sends nothing', async () => {
    const page = suite.page;
    await openChat(page, INIT, context());
    const input = page.locator('.composer-input');
    await input.pressSequentially('Explain #fi');
    const menu = page.locator('.hash-menu');
    assert.equal(await menu.isVisible(), true);
    assert.deepEqual(await menu.locator('[role=option]').allTextContents(), ['#file — A workspace file…']);
    await input.press('Enter');
    const messages = await posted(page);
    assert.deepEqual(messages.at(-1), { type: 'addContext', source: 'workspaceFile' });
    assert.equal(messages.some((m) => m.type === 'send'), false);
    assert.equal(await input.inputValue(), 'Explain ');
    assert.equal(await menu.isHidden(), true);
    await input.pressSequentially('#');
    await input.press('ArrowDown');
    await input.press('Tab');
    assert.deepEqual((await posted(page)).at(-1), { type: 'addContext', source: 'activeFile' });
    await page.locator('.add-context').click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'addContext', source: 'menu' });
  });

  it('a pasted image is posted as attachImage with its type and base64 data', async () => {
    const page = suite.page;
    await openChat(page, INIT, context());
    await page.evaluate(() => {
      const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'shot.png', { type: 'image/png' }));
      document.querySelector('.composer-input')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    });
    await page.waitForFunction(() => (window as unknown as { posted: Posted }).posted.some((m) => m.type === 'attachImage'));
    const image = (await posted(page)).find((m) => m.type === 'attachImage');
    assert.deepEqual(image, { type: 'attachImage', name: 'shot.png', mimeType: 'image/png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString('base64') });
  });

  it('compare shows the replies side by side with their timings, and keeps the chosen one', async () => {
    const page = suite.page;
    await openChat(page, INIT, context());
    const column = (model: string, status: string, content: string) => ({ model, content, status, firstTokenMs: 320, totalMs: status === 'streaming' ? null : 2100, usage: status === 'complete' ? { prompt: 10, completion: 5, total: 15 } : null, finishReason: null, error: '' });
    await receive(page, { type: 'compare', compare: { id: 'cmp1', question: 'Which?', columns: [column('model-k3', 'streaming', 'One'), column('model-5.2', 'complete', 'Two')] } });
    const columns = page.locator('.compare-column');
    assert.equal(await columns.count(), 2);
    assert.match((await columns.nth(1).locator('.compare-meta').textContent()) ?? '', /complete · first token 320 ms · total 2\.1 s · 10 prompt · 5 completion · 15 tokens/);
    assert.equal(await columns.nth(0).getByRole('button', { name: 'Keep This Reply' }).isDisabled(), true, 'a streaming reply cannot be kept yet');
    // The first reply stalls: its text is kept, marked interrupted with why, and it can be kept as such.
    await receive(page, { type: 'compare', compare: { id: 'cmp1', question: 'Which?', columns: [{ ...column('model-k3', 'interrupted', 'One'), error: 'The gateway stopped answering.' }, column('model-5.2', 'complete', 'Two')] } });
    assert.match((await columns.nth(0).locator('.compare-meta').textContent()) ?? '', /^interrupted · /);
    assert.equal(await columns.nth(0).locator('.turn-error').textContent(), 'The gateway stopped answering.');
    assert.equal(await columns.nth(0).getByRole('button', { name: 'Keep This Reply' }).isDisabled(), false, 'a reply that broke off can be kept');
    await columns.nth(1).getByRole('button', { name: 'Keep This Reply' }).click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'keepCompare', id: 'cmp1', index: 1 });
    await receive(page, { type: 'compare', compare: null });
    assert.equal(await page.locator('.compare').isHidden(), true);
  });

  it('send and Compare are requests: a typed reply gives back what the host did not send, and only to its request', async () => {
    const page = suite.page;
    await openChat(page, INIT, context());
    const input = page.locator('.composer-input');
    await input.fill('First question');
    await input.press('Enter');
    assert.deepEqual((await posted(page)).at(-1), { type: 'send', requestId: 1, text: 'First question' });
    assert.equal(await input.inputValue(), '');
    // A reply to no request waiting changes nothing; the one to this request says it was sent.
    await receive(page, { type: 'reply', requestId: 9, reply: { sent: false, why: 'busy' } });
    await receive(page, { type: 'reply', requestId: 1, reply: { sent: true } });
    assert.equal(await input.inputValue(), '', 'sent: it stays gone');
    await input.fill('Second question');
    await input.press('Enter');
    await receive(page, { type: 'reply', requestId: 2, reply: { sent: false, why: 'busy' } });
    assert.equal(await input.inputValue(), 'Second question', 'not sent: back in the input');
    await receive(page, { type: 'reply', requestId: 2, reply: { sent: false, why: 'busy' } });
    assert.equal(await input.inputValue(), 'Second question', 'a request is answered once');

    // Compare: the question leaves the input; refused (the picker cancelled), it comes back.
    await page.getByRole('button', { name: /^Compare models/ }).click();
    assert.deepEqual((await posted(page)).at(-1), { type: 'compare', requestId: 3, text: 'Second question', models: [] });
    assert.equal(await input.inputValue(), '');
    await receive(page, { type: 'reply', requestId: 3, reply: { started: false } });
    assert.equal(await input.inputValue(), 'Second question', 'not compared: back in the input');
    // A host that fails the request says so with an error: the question comes back too.
    await page.getByRole('button', { name: /^Compare models/ }).click();
    await receive(page, { type: 'reply', requestId: 4, error: 'The models could not be listed.' });
    assert.equal(await input.inputValue(), 'Second question');
    await page.getByRole('button', { name: /^Compare models/ }).click();
    await receive(page, { type: 'reply', requestId: 5, reply: { started: true } });
    assert.equal(await input.inputValue(), '', 'started: the question is in the comparison');
  });
});
