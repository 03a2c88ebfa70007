// Reasoning effort: the levels a model offers, how a chosen one is sent (three wire forms, nothing for the
// default), and what VS Code's chat asks for (a caller's modelOptions, the picker's choice).
import * as assert from 'node:assert/strict';
import { describeEffortFields, effortFields } from '../../../src/gateway/reasoningEffort';
import { effortLevelsOf } from '../../../src/models/core/reasoningLevels';
import { DEFAULT_CHOICE, effortSchemaFor, requestedEffort } from '../../../src/models/core/lmReasoning';
import { toChatInformation } from '../../../src/models/core/lmMapping';
import { toChatRequest } from '../../../src/models/core/lmRequestMapping';
import { toCatalogModel } from '../../../src/models/core/modelListing';
import { buildChatRequest } from '../../../src/chat/core/request';
import { defaultSettings } from '../../../src/chatProtocol/session';
import { cleanSettings, usageFromGateway } from '../../../src/chatProtocol/sessionData';
import { formatSeconds, thinkingSummary, ThinkingTimer } from '../../../src/chatProtocol/thinking';
import { model } from './fakes';

const SETTING = ['low', 'medium', 'high'];

describe('reasoning effort', () => {
  it('sends nothing for the default, and the chosen level in the configured form', () => {
    for (const format of ['reasoning_effort', 'responses', 'anthropic'] as const) assert.deepEqual(effortFields(undefined, format), {});
    assert.deepEqual(effortFields('high'), { reasoning_effort: 'high' });
    assert.deepEqual(effortFields('high', 'responses'), { reasoning: { effort: 'high' } });
    assert.deepEqual(effortFields('low', 'anthropic'), { thinking: { type: 'enabled', budget_tokens: 2048 } });
    assert.deepEqual(effortFields('house-level', 'anthropic'), { thinking: { type: 'enabled', budget_tokens: 8192 } });
    assert.deepEqual(effortFields('none', 'anthropic'), { thinking: { type: 'disabled' } });
    assert.equal(describeEffortFields(effortFields('high')), 'reasoning_effort: "high"');
    assert.equal(describeEffortFields({}), 'nothing');
  });

  it('the panel sends the chat\'s effort only when one is chosen', () => {
    const settings = { ...defaultSettings(), model: 'm' };
    assert.equal('reasoning_effort' in buildChatRequest([], settings, 'm'), false);
    assert.equal(buildChatRequest([], { ...settings, reasoningEffort: 'medium' }, 'm').reasoning_effort, 'medium');
    assert.deepEqual(buildChatRequest([], { ...settings, reasoningEffort: 'medium' }, 'm', { effortFormat: 'responses' }).reasoning, { effort: 'medium' });
  });

  it('is saved with the chat, and a malformed one is dropped', () => {
    assert.equal(cleanSettings({ ...defaultSettings(), reasoningEffort: 'x-high' }).reasoningEffort, 'x-high');
    assert.equal('reasoningEffort' in cleanSettings({ ...defaultSettings(), reasoningEffort: 'high"; rm -rf' }), false);
    assert.equal('reasoningEffort' in cleanSettings(defaultSettings()), false);
  });

  it('takes levels from the model list, else from the setting, and none when the list excludes them', () => {
    assert.deepEqual(effortLevelsOf({ reasoning_effort_levels: ['minimal', 'high'] }, SETTING).levels, ['minimal', 'high']);
    assert.deepEqual(effortLevelsOf({ reasoning: { levels: ['low'] } }, SETTING).levels, ['low']);
    const parameter = effortLevelsOf({ supported_parameters: ['reasoning_effort'] }, SETTING);
    assert.deepEqual([parameter.levels, parameter.source], [SETTING, 'gateway-parameter']);
    const excluded = effortLevelsOf({ supported_parameters: ['temperature', 'tools'] }, SETTING);
    assert.deepEqual([excluded.levels, excluded.source], [[], 'gateway-excludes']);
    assert.match(excluded.why, /not one of them/);
    assert.equal(effortLevelsOf({}, SETTING).source, 'setting');
  });

  it('VS Code\'s chat: the picker menu starts with the default, and a request forwards only what was asked', () => {
    const schema = effortSchemaFor({ reasoning_effort_levels: ['low', 'high'] }, SETTING)!;
    assert.deepEqual(schema.properties.reasoningEffort.enum, [DEFAULT_CHOICE, 'low', 'high']);
    assert.equal(schema.properties.reasoningEffort.default, DEFAULT_CHOICE);
    assert.equal(effortSchemaFor({ supported_parameters: ['tools'] }, SETTING), undefined);
    assert.equal(toChatInformation(toCatalogModel(model('m', { supported_parameters: ['tools'] })), SETTING).configurationSchema, undefined);
    assert.ok(toChatInformation(toCatalogModel(model('m')), SETTING).configurationSchema);

    assert.equal(requestedEffort(undefined, undefined), undefined);
    assert.equal(requestedEffort({}, { reasoningEffort: DEFAULT_CHOICE }), undefined);
    assert.equal(requestedEffort({}, { reasoningEffort: 'low' }), 'low');
    assert.equal(requestedEffort({ reasoning_effort: 'high' }, { reasoningEffort: 'low' }), 'high');
    assert.equal(requestedEffort({ reasoning_effort: 'not a level' }, { reasoningEffort: 'low' }), undefined);
    const base = { model: 'm', messages: [{ role: 'user' as const, content: [{ kind: 'text' as const, value: 'hi' }] }], toolMode: 'auto' as const };
    assert.equal('reasoning_effort' in toChatRequest(base), false);
    assert.equal(toChatRequest({ ...base, modelOptions: { reasoning_effort: 'high' } }).reasoning_effort, 'high');
    assert.deepEqual(toChatRequest({ ...base, modelOptions: { reasoning_effort: 'high' }, effortFormat: 'anthropic' }).thinking, { type: 'enabled', budget_tokens: 16384 });
  });
});

describe('thinking summary', () => {
  it('reads reasoning tokens from completion_tokens_details', () => {
    assert.equal(usageFromGateway({ prompt_tokens: 5, completion_tokens: 40, total_tokens: 45, completion_tokens_details: { reasoning_tokens: 32 } })?.reasoning, 32);
    assert.equal(usageFromGateway({ prompt_tokens: 5, completion_tokens: 40, total_tokens: 45 })?.reasoning, undefined);
  });

  it('says how long and how many tokens, once known', () => {
    const done = { status: 'complete' as const, content: 'x', usage: { prompt: 1, completion: 2, total: 3, reasoning: 1234 } };
    assert.equal(thinkingSummary({ ...done, thoughtMs: 12_400 }), 'Thought for 12 s · 1,234 reasoning tokens');
    assert.equal(thinkingSummary({ ...done, usage: null, thoughtMs: 2_440 }), 'Thought for 2.4 s');
    assert.equal(thinkingSummary({ ...done }), 'Reasoning · 1,234 reasoning tokens');
    assert.equal(thinkingSummary({ ...done, usage: null }), 'Reasoning');
    assert.equal(thinkingSummary({ status: 'streaming', content: '', usage: null }), 'Thinking…');
    assert.equal(formatSeconds(40), 'under 0.1 s');
  });

  it('times from the first reasoning to the first answer text', () => {
    const timer = new ThinkingTimer();
    timer.note({ content: 'early' }, 0);
    assert.equal(timer.elapsed(50), undefined);
    timer.note({ reasoning: 'hm' }, 100);
    timer.note({ reasoning: 'more' }, 900);
    timer.note({ content: 'Answer' }, 1500);
    timer.note({ content: 'more answer' }, 3000);
    assert.equal(timer.elapsed(5000), 1400);
    const onlyReasoning = new ThinkingTimer();
    onlyReasoning.note({ reasoning: 'hm' }, 10);
    assert.equal(onlyReasoning.elapsed(70), 60);
  });
});
