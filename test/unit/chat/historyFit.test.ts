// Long chats: which newest turns fit the context window (pure), the summary request and draft, and ChatContext
// holding back a message, Regenerate and Edit and resend until the user picks a way out.
import * as assert from 'node:assert/strict';
import { ChatContext } from '../../../src/chat/core/chatContext';
import { fitHistory } from '../../../src/chat/core/historyFit';
import { SUMMARY_INSTRUCTION, summaryDraft, summaryRequest } from '../../../src/chat/core/historySummary';
import { parseHostMessage, parseWebviewMessage } from '../../../src/chatProtocol/messages';
import { defaultSettings, type AssistantTurn, type ChatSession, type Turn, type UserTurn } from '../../../src/chatProtocol/session';
import { repairSession } from '../../../src/chatProtocol/sessionData';
import { wireTurn } from '../../../src/chat/core/webviewBridge';
import { settle } from '../../util/fakeClock';
import { result } from './fakes';
import { createHarness } from './harness';

/** 40 characters: 10 tokens of text, 13 with a message's framing. */
const WORDS = 'abcdefghij'.repeat(4);

function user(id: string, content = WORDS): UserTurn {
  return { id, role: 'user', createdAt: 0, content };
}

function reply(id: string, content = WORDS): AssistantTurn {
  return { id, role: 'assistant', createdAt: 0, model: 'model-k3', content, reasoning: '', refusal: '', toolCalls: [], status: 'complete', finishReason: 'stop', usage: null };
}

/** n exchanges (question and reply, 26 tokens each), ids u1/a1… */
function exchanges(n: number): Turn[] {
  return Array.from({ length: n }, (_, i) => [user(`u${i + 1}`), reply(`a${i + 1}`)]).flat();
}

describe('long chats: the newest turns that fit', () => {
  const settings = defaultSettings();

  it('sends everything when it fits', () => {
    const turns = [...exchanges(3), user('q')];
    assert.deepEqual(fitHistory(turns, settings, 1000), { fromIndex: 0, omittedTurns: 0, total: 91, whole: 91, window: 1000, fits: true });
  });

  it('drops whole exchanges, oldest first, until the rest fits, and counts the turns left out', () => {
    const turns = [...exchanges(5), user('q')];
    // 5 × 26 + 13 = 143 tokens; 70 leaves room for the question and two exchanges (65).
    const fit = fitHistory(turns, settings, 70);
    assert.equal(fit.fromIndex, 6, 'starts at a question (u4)');
    assert.equal(turns[fit.fromIndex].id, 'u4');
    assert.equal(fit.omittedTurns, 6);
    assert.equal(fit.total, 65);
    assert.equal(fit.whole, 143);
    assert.equal(fit.fits, true);
  });

  it('never starts with a reply: a window that would fit a reply and the question still starts at a question', () => {
    const turns = [...exchanges(2), user('q')];
    // The question (13) and the last reply (13) would fit 30, but not the exchange before it (39): only the question goes.
    const fit = fitHistory(turns, settings, 30);
    assert.equal(turns[fit.fromIndex].id, 'q');
    assert.equal(fit.omittedTurns, 4);
  });

  it('counts only turns that would have been sent, and the system prompt and reply reserve count against the window', () => {
    const turns: Turn[] = [user('u1'), reply('a1', ''), { id: 'm1', role: 'media', createdAt: 0, kind: 'image', content: '/image a cat', prompt: 'a cat', model: 'img', state: 'complete' }, ...exchanges(1).map((t) => ({ ...t, id: `${t.id}b` })), user('q')];
    const fit = fitHistory(turns, { ...settings, systemPrompt: WORDS, maxTokens: 20 }, 80);
    // Reserve 20 + system 13 + question 13 + one exchange 26 = 72; the first question (13 more) does not fit.
    assert.equal(turns[fit.fromIndex].id, 'u1b');
    assert.equal(fit.omittedTurns, 1, 'the empty reply and the media turn were never sent: not counted');
    assert.equal(fit.total, 72);
  });

  it('says when even the question alone does not fit', () => {
    const turns = [...exchanges(2), user('q', WORDS.repeat(10))];
    const fit = fitHistory(turns, settings, 50);
    assert.equal(fit.fits, false);
    assert.equal(turns[fit.fromIndex].id, 'q');
    assert.equal(fit.total, 103);
  });
});

describe('long chats: branch with a summary', () => {
  const session: ChatSession = { id: 's', title: 'Otters', createdAt: 0, updatedAt: 0, settings: { ...defaultSettings(), model: 'model-k3', systemPrompt: 'Be brief' }, turns: [...exchanges(30)] };

  it('asks for a summary of the newest turns that fit, and says which it does not cover', () => {
    const asked = summaryRequest(session, 'model-k3', 600);
    assert.equal(asked.request.model, 'model-k3');
    assert.equal(asked.request.max_tokens, 150, 'a small window keeps three quarters for the transcript');
    assert.equal(asked.request.messages[0].content, SUMMARY_INSTRUCTION);
    const transcript = String(asked.request.messages[1].content);
    assert.ok(transcript.startsWith('User:\n'), 'starts at a question');
    assert.ok(asked.omittedTurns > 0 && asked.omittedTurns % 2 === 0, String(asked.omittedTurns));
    assert.equal(transcript.split('User:\n').length - 1, 30 - asked.omittedTurns / 2);
    const all = summaryRequest(session, 'model-k3', 100_000);
    assert.equal(all.omittedTurns, 0);
    assert.equal(all.request.max_tokens, 1024);
    assert.equal(String(all.request.messages[1].content).split('Assistant:\n').length - 1, 30);
  });

  it('builds the new chat’s first message: what it is, the summary, then the message that was held back', () => {
    assert.equal(
      summaryDraft('Otters', 'model-k3', '  They swim.  ', 4, 'And seals?'),
      'Summary of our earlier chat “Otters” (written by model-k3; read and edit it before sending). It does not cover the 4 oldest turns, which did not fit.\n\nThey swim.\n\nAnd seals?',
    );
    assert.equal(summaryDraft('Otters', 'm', 'S', 0, ''), 'Summary of our earlier chat “Otters” (written by m; read and edit it before sending).\n\nS');
  });
});

describe('long chats: ChatContext holds back what does not fit until the user chooses', () => {
  function setup(window: number) {
    const h = createHarness();
    h.session.turns.push(...exchanges(5));
    const summaries: string[] = [];
    const context = new ChatContext(h.controller, {
      sources: { collect: async () => [], fromUris: async () => [], warn: () => undefined },
      windowFor: () => ({ tokens: window, source: 'setting' }),
      newId: () => 'att',
      summarize: async (pending) => void summaries.push(pending),
    });
    return { h, context, summaries };
  }

  it('a message over the window is held with both ways out; the newest-turns send leaves the oldest out and the reply says so', async () => {
    const { h, context } = setup(70);
    assert.equal(context.send(WORDS), false);
    assert.equal(h.gateway.calls.length, 0, 'nothing sent');
    const state = context.state;
    assert.match(state.warning, /^Not sent: the chat would overflow the context window of model-k3 \(≈143 of 70 tokens\)\.$/);
    assert.doesNotMatch(state.warning, /attachment/, 'no advice about attachments there are not');
    assert.deepEqual(state.overflow, { action: 'send', omittedTurns: 6, canSummarize: true, total: 143, window: 70 });
    assert.ok(parseHostMessage({ type: 'context', context: state }).ok);

    assert.ok(parseWebviewMessage({ type: 'resolveOverflow', requestId: 1, choice: 'newest', text: 'Edited question' }).ok);
    assert.equal(await context.resolveOverflow('newest', 'Edited question'), true);
    await settle();
    const messages = h.gateway.calls[0].request.messages;
    assert.deepEqual(messages.map((m) => m.content), [WORDS, WORDS, WORDS, WORDS, 'Edited question'], 'the two newest exchanges and the question');
    const sent = h.session.turns.at(-1) as AssistantTurn;
    assert.equal(sent.omittedTurns, 6);
    assert.equal(context.state.overflow, undefined);
    h.gateway.calls[0].resolve(result('ok'));
    await h.controller.idle;
    const saved = repairSession(JSON.parse(h.fs.files.get('s1.json') ?? '{}').session, 's1')!.session;
    assert.equal((saved.turns.at(-1) as AssistantTurn).omittedTurns, 6, 'saved with the reply');
    const wire = wireTurn(sent, 0);
    assert.ok(parseHostMessage({ type: 'turnAdded', turn: wire }).ok);
    assert.equal((wire as AssistantTurn).omittedTurns, 6, 'and shown with it');
  });

  it('Regenerate and Edit and resend are held back too, never sent whole', async () => {
    const { h, context } = setup(70);
    h.session.turns.push(user('q'));
    assert.equal(await context.regenerate(), false);
    assert.equal(context.state.overflow?.action, 'regenerate');
    assert.match(context.state.warning, /^Not regenerated: /);
    assert.equal(h.gateway.calls.length, 0);
    assert.equal(await context.resolveOverflow('newest'), true);
    await settle();
    assert.equal(h.gateway.calls[0].request.messages.length, 5);
    h.gateway.calls[0].resolve(result('ok'));
    await h.controller.idle;

    assert.equal(await context.editAndResend('u5', 'Shorter'), false);
    assert.equal(context.state.overflow?.action, 'edit');
    assert.equal(h.gateway.calls.length, 1);
    assert.equal(await context.resolveOverflow('cancel'), false);
    assert.equal(context.state.overflow, undefined);
    assert.equal(h.gateway.calls.length, 1, 'cancel sends nothing');
  });

  it('Resend Without Image is held back too, and its newest-turns resend leaves out the image and the oldest turns', async () => {
    const { h, context } = setup(70);
    h.session.turns.push({ ...user('q', 'What is this?'), attachments: [{ kind: 'image', id: 'i1', name: 'x.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' }] });
    h.session.turns.push({ ...reply('f', ''), status: 'failed' });
    assert.equal(await context.resendWithoutImages(), false);
    assert.equal(context.state.overflow?.action, 'edit');
    assert.equal(h.gateway.calls.length, 0);
    assert.equal(await context.resolveOverflow('newest'), true);
    await settle();
    const messages = h.gateway.calls[0].request.messages;
    assert.equal(messages.at(-1)?.content, 'What is this?', 'text only');
    assert.ok(messages.length < 11, 'the oldest turns are left out');
    assert.ok((h.session.turns.at(-1) as AssistantTurn).omittedTurns! > 0);
    h.gateway.calls[0].resolve(result('ok'));
    await h.controller.idle;
  });

  it('Branch with a Summary gets the held message; a message too large on its own offers no newest-turns send', async () => {
    const { h, context, summaries } = setup(40);
    assert.equal(context.send(WORDS.repeat(4)), false);
    assert.equal(context.state.overflow?.omittedTurns, 0, 'even the message alone does not fit');
    assert.match(context.state.warning, /Even the message alone does not fit: shorten it\.$/);
    assert.equal(await context.resolveOverflow('summary', WORDS), false);
    assert.deepEqual(summaries, [WORDS]);
    assert.equal(h.gateway.calls.length, 0);
  });
});
