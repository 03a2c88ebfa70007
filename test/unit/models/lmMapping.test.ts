import * as assert from 'node:assert/strict';
import { DEFAULT_MAX_INPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS, toChatInformation, type LmMessage } from '../../../src/models/core/lmMapping';
import {
  estimateTokens,
  samplingFrom,
  toChatMessages,
  toChatRequest,
  toLmToolCalls,
  toToolChoice,
  toToolDefinitions,
  ToolArgumentsError,
} from '../../../src/models/core/lmRequestMapping';
import { toCatalogModel } from '../../../src/models/core/modelListing';
import { seesImages } from '../../../src/models/core/lmMapping';
import { model } from './fakes';

const user = (...content: LmMessage['content']): LmMessage => ({ role: 'user', content });
const assistant = (...content: LmMessage['content']): LmMessage => ({ role: 'assistant', content });
const text = (value: string) => ({ kind: 'text', value }) as const;

describe('LM mapping', () => {
  describe('model information', () => {
    it('describes a chat model with tool calling and the default limits', () => {
      const info = toChatInformation(toCatalogModel(model('model-k3')));
      assert.equal(info.id, 'model-k3');
      assert.equal(info.name, 'model-k3');
      assert.equal(info.family, 'model-k3');
      assert.equal(info.version, '1700000000');
      assert.equal(info.maxInputTokens, DEFAULT_MAX_INPUT_TOKENS);
      assert.equal(info.maxOutputTokens, DEFAULT_MAX_OUTPUT_TOKENS);
      assert.deepEqual(info.capabilities, { toolCalling: true, imageInput: false });
      assert.match(info.tooltip ?? '', /owned by model-gateway/);
    });

    it('takes context sizes from the model list when it names them', () => {
      const info = toChatInformation(toCatalogModel(model('acme-chat', { context_length: 32_768, max_completion_tokens: 4096 })));
      assert.equal(info.maxInputTokens, 32_768);
      assert.equal(info.maxOutputTokens, 4096);
      const odd = toChatInformation(toCatalogModel(model('acme-chat', { context_length: '32k', max_output_tokens: -1 })));
      assert.equal(odd.maxInputTokens, DEFAULT_MAX_INPUT_TOKENS);
      assert.equal(odd.maxOutputTokens, DEFAULT_MAX_OUTPUT_TOKENS);
    });

    it('declares image input only where the model list says the model reads images', () => {
      const yes = [{ input_modalities: ['text', 'image'] }, { modalities: ['text', 'image'] }, { architecture: { input_modalities: ['image', 'text'] } }, { supports_vision: true }, { capabilities: { vision: true } }];
      for (const extra of yes) assert.equal(toChatInformation(toCatalogModel(model('acme-chat', extra))).capabilities.imageInput, true, JSON.stringify(extra));
      const no = [{}, { modalities: ['text'] }, { output_modalities: ['image'] }, { supports_vision: 'yes' }, { capabilities: ['vision'] }];
      for (const extra of no) assert.equal(toChatInformation(toCatalogModel(model('acme-chat', extra))).capabilities.imageInput, false, JSON.stringify(extra));
    });

    it('knows a model as blind only when its list says so (LiteLLM model_info, an input list without image)', () => {
      assert.equal(seesImages(model('a', { model_info: { supports_vision: true } })), true);
      assert.equal(seesImages(model('a', { model_info: { supports_vision: false } })), false);
      assert.equal(seesImages(model('a', { architecture: { input_modalities: ['text'] } })), false);
      assert.equal(seesImages(model('a', { input_modalities: ['text', 'audio'] })), false);
      assert.equal(seesImages(model('a')), undefined, 'an OpenAI-style entry says nothing');
      assert.equal(seesImages(model('a', { modalities: ['text'] })), undefined, '`modalities` may be outputs');
    });
  });

  describe('images', () => {
    it("maps VS Code's image data parts to image_url parts with a data URL, after the text", () => {
      const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);
      const out = toChatMessages([user(text('What is this?'), { kind: 'image', mimeType: 'image/png', data: png })]);
      assert.deepEqual(out, [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(png).toString('base64')}` } },
          ],
        },
      ]);
      assert.deepEqual(toChatMessages([user({ kind: 'image', mimeType: 'image/jpeg', data: png })])[0].content, [{ type: 'image_url', image_url: { url: `data:image/jpeg;base64,${Buffer.from(png).toString('base64')}` } }]);
      assert.ok(estimateTokens(user({ kind: 'image', mimeType: 'image/png', data: png })) > 700, 'an image counts like one in the chat');
    });
  });

  describe('messages', () => {
    it('joins text parts and keeps roles and names', () => {
      const out = toChatMessages([
        { role: 'system', content: [text('Be brief.')] },
        { role: 'user', content: [text('Hello, '), text('world')], name: 'ada' },
        assistant(text('Hi!')),
      ]);
      assert.deepEqual(out, [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello, world', name: 'ada' },
        { role: 'assistant', content: 'Hi!' },
      ]);
    });

    it('turns tool calls into assistant tool_calls and tool results into tool messages, results first', () => {
      const out = toChatMessages([
        user(text('Weather in Paris and Rome?')),
        assistant(text('Checking.'), { kind: 'toolCall', callId: 'c1', name: 'weather', input: { city: 'Paris' } }, { kind: 'toolCall', callId: 'c2', name: 'weather', input: { city: 'Rome' } }),
        user({ kind: 'toolResult', callId: 'c1', content: '18 °C' }, text('And tomorrow?'), { kind: 'toolResult', callId: 'c2', content: '24 °C' }),
      ]);
      assert.deepEqual(out, [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            { id: 'c1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            { id: 'c2', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: '18 °C' },
        { role: 'tool', tool_call_id: 'c2', content: '24 °C' },
        { role: 'user', content: 'And tomorrow?' },
      ]);
    });

    it('sends null content for an assistant message that only calls tools, and drops empty messages', () => {
      const out = toChatMessages([user(), assistant({ kind: 'toolCall', callId: 'c1', name: 'now', input: {} }), assistant(), user({ kind: 'toolResult', callId: 'c1', content: '12:00' })]);
      assert.deepEqual(out, [
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'now', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: '12:00' },
      ]);
    });
  });

  describe('tools', () => {
    const weather = { name: 'weather', description: 'Current weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
    const now = { name: 'now', description: '' };

    it('maps tool definitions, giving a schema-less tool an empty object schema', () => {
      assert.deepEqual(toToolDefinitions([weather, now]), [
        { type: 'function', function: { name: 'weather', description: 'Current weather', parameters: weather.inputSchema } },
        { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } },
      ]);
    });

    it('chooses tool_choice from the tool mode', () => {
      assert.equal(toToolChoice('auto', [weather, now]), 'auto');
      assert.deepEqual(toToolChoice('required', [weather]), { type: 'function', function: { name: 'weather' } });
      assert.equal(toToolChoice('required', [weather, now]), 'required');
    });

    it('builds a streaming request, with tools only when there are some', () => {
      const plain = toChatRequest({ model: 'model-k3', messages: [user(text('hi'))], toolMode: 'auto' });
      assert.deepEqual(plain, { model: 'model-k3', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
      const withTools = toChatRequest({ model: 'model-k3', messages: [user(text('hi'))], tools: [weather], toolMode: 'required', modelOptions: { temperature: 0.2, maxTokens: 50 } });
      assert.equal(withTools.tools?.length, 1);
      assert.deepEqual(withTools.tool_choice, { type: 'function', function: { name: 'weather' } });
      assert.equal(withTools.temperature, 0.2);
      assert.equal(withTools.max_tokens, 50);
    });

    it('parses streamed tool calls into tool call parts', () => {
      const parts = toLmToolCalls([
        { id: 'call_1', type: 'function', name: 'weather', arguments: '{"city":"Paris"}' },
        { id: '', type: 'function', name: 'now', arguments: '' },
      ]);
      assert.deepEqual(parts, [
        { callId: 'call_1', name: 'weather', input: { city: 'Paris' } },
        { callId: 'call_mg_1', name: 'now', input: {} },
      ]);
    });

    it('refuses tool arguments that are not a JSON object', () => {
      assert.throws(() => toLmToolCalls([{ id: 'c', type: 'function', name: 'weather', arguments: '{"city":' }]), ToolArgumentsError);
      assert.throws(() => toLmToolCalls([{ id: 'c', type: 'function', name: 'weather', arguments: '[1]' }]), /not a JSON object/);
      assert.throws(() => toLmToolCalls([{ id: 'c', type: 'function', name: '', arguments: '{}' }]), /without a tool name/);
    });
  });

  describe('sampling options', () => {
    it('passes temperature or top_p (never both), a positive integer max_tokens and stop sequences', () => {
      assert.deepEqual(samplingFrom({ temperature: 0.5, top_p: 0.9, max_tokens: 10, stop: 'END' }), { temperature: 0.5, max_tokens: 10, stop: ['END'] });
      assert.deepEqual(samplingFrom({ topP: 0.9, maxTokens: 1.5, stop: ['a', 3] }), { top_p: 0.9, stop: ['a'] });
      assert.deepEqual(samplingFrom(undefined), {});
      assert.deepEqual(samplingFrom({ temperature: '1' }), {});
    });
  });

  describe('token estimate', () => {
    it('counts about four characters per token, rounded up', () => {
      assert.equal(estimateTokens(''), 0);
      assert.equal(estimateTokens('abcd'), 1);
      assert.equal(estimateTokens('abcde'), 2);
      assert.equal(estimateTokens('x'.repeat(400)), 100);
    });

    it('counts every part of a message plus the per-message framing', () => {
      const message = assistant(text('x'.repeat(8)), { kind: 'toolCall', callId: 'c1', name: 'ab', input: { k: 1 } });
      // 8 text + 2 name + 7 for {"k":1} = 17 chars → 5 tokens, + 3
      assert.equal(estimateTokens(message), 8);
      assert.equal(estimateTokens(user({ kind: 'toolResult', callId: 'c1', content: 'xx' })), 1 + 3);
    });
  });
});
