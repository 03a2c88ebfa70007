// The chat panel's reasoning in Chromium: the per-chat effort control (the model's levels, "Default (send nothing)",
// a level kept visible when the model changes) and the collapsed thinking with its summary, opened by keyboard.
import assert from 'node:assert/strict';
import { chatBundle } from './chatBundle';
import { useSuitePage } from './suitePage';
import { openChat, posted } from './chatPage';

const SETTINGS = { model: 'model-5.2', systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false };
const MODELS = { models: ['model-k3', 'model-5.2'], loading: false, efforts: { 'model-5.2': ['low', 'medium', 'high'] } };
const ANSWER = { id: 'a1', role: 'assistant', createdAt: 2, model: 'model-5.2', content: 'Rayleigh scattering.', reasoning: 'Short wavelengths scatter more.', refusal: '', toolCalls: [], status: 'complete', finishReason: 'stop', usage: { prompt: 5, completion: 40, total: 45, reasoning: 32 }, thoughtMs: 12_400 };

describe('chat reasoning in Chromium', function () {
  this.timeout(30_000);
  const suite = useSuitePage(undefined, { body: '', script: chatBundle });

  it('offers the model\'s effort levels after "Default (send nothing)", and sends the choice with the chat\'s settings', async () => {
    const page = suite.page;
    await openChat(page, { type: 'init', sessionId: 's1', title: 'Effort', settings: SETTINGS, turns: [], models: MODELS });
    const effort = page.getByRole('combobox', { name: 'Reasoning effort' });
    assert.deepEqual(await effort.locator('option').allTextContents(), ['Effort: Default (send nothing)', 'Effort: low', 'Effort: medium', 'Effort: high']);
    await effort.selectOption('high');
    const updates = (await posted(page)).filter((m) => m.type === 'updateSettings');
    assert.equal((updates.at(-1)!.settings as { reasoningEffort?: string }).reasoningEffort, 'high');
    // A model without levels: the chosen level stays visible, marked, rather than silently dropped or sent unseen.
    await page.getByRole('combobox', { name: 'Model' }).selectOption('model-k3');
    assert.deepEqual(await effort.locator('option').allTextContents(), ['Effort: Default (send nothing)', 'Effort: high (not listed for this model)']);
    await effort.selectOption('');
    const last = (await posted(page)).filter((m) => m.type === 'updateSettings').at(-1)!.settings as Record<string, unknown>;
    assert.equal('reasoningEffort' in last, false, 'Default sends nothing');
  });

  it('shows the thinking collapsed, with how long and how many tokens, and opens it from the keyboard', async () => {
    const page = suite.page;
    const question = { id: 'u1', role: 'user', createdAt: 1, content: 'Why is the sky blue?' };
    await openChat(page, { type: 'init', sessionId: 's1', title: 'Thinking', settings: SETTINGS, turns: [question, ANSWER], models: MODELS });
    const box = page.locator('details.reasoning');
    await box.waitFor();
    assert.equal(await box.getAttribute('open'), null, 'collapsed');
    assert.equal((await box.locator('summary').textContent())?.trim(), 'Thought for 12 s · 32 reasoning tokens');
    assert.equal((await page.locator('.assistant-turn .content').textContent())?.includes('Short wavelengths'), false, 'the reasoning is not in the answer');
    await box.locator('summary').focus();
    await page.keyboard.press('Enter');
    assert.notEqual(await box.getAttribute('open'), null, 'Enter opens it');
  });
});
