import * as assert from 'node:assert/strict';
import { startSimulator, type Simulator } from '../../simulator';
import { call, callJson, chatBody, summarizeStream } from './helpers';

describe('simulator: models and chat completions', () => {
  let sim: Simulator;

  before(async () => {
    sim = await startSimulator();
  });
  after(async () => {
    await sim.close();
  });

  async function streamed(body: Record<string, unknown>, headers?: Record<string, string>) {
    const response = await call(sim, '/v1/chat/completions', { body: { ...body, stream: true }, headers });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    return summarizeStream(await response.text());
  }

  async function completed(body: Record<string, unknown>) {
    const { status, json } = await callJson(sim, '/v1/chat/completions', { body });
    assert.equal(status, 200, JSON.stringify(json));
    return json;
  }

  it('lists the three models in the list shape', async () => {
    const { status, json } = await callJson(sim, '/v1/models');
    assert.equal(status, 200);
    assert.equal(json.object, 'list');
    assert.deepEqual(json.data.map((m: { id: string }) => m.id), ['model-k3', 'model-5.2', 'model-1.0-video-edit', 'model-image-1.0', 'model-speech-1.0', 'model-transcribe-1.0']);
    for (const model of json.data) {
      assert.equal(model.object, 'model');
      assert.equal(typeof model.created, 'number');
      assert.equal(typeof model.owned_by, 'string');
    }
    assert.equal((await callJson(sim, '/v1/models/model-5.2')).json.id, 'model-5.2');
    assert.equal((await callJson(sim, '/v1/models/nope')).json.error.code, 'model_not_found');
  });

  it('returns a chat.completion with a markdown reply that echoes the user', async () => {
    const json = await completed(chatBody('How do streams work in Node?'));
    assert.equal(json.object, 'chat.completion');
    assert.match(json.id, /^chatcmpl-/);
    assert.equal(json.model, 'model-k3');
    assert.equal(typeof json.created, 'number');
    const [choice] = json.choices;
    assert.equal(choice.index, 0);
    assert.equal(choice.message.role, 'assistant');
    assert.equal(choice.finish_reason, 'stop');
    const content: string = choice.message.content;
    assert.ok(content.includes('How do streams work in Node?'));
    assert.match(content, /^## /m, 'heading');
    assert.match(content, /^- /m, 'list');
    assert.match(content, /^\| --- \|/m, 'table');
    assert.match(content, /\[[^\]]+\]\(https:\/\/example\.com\//, 'link');
    assert.equal(content.match(/^```[a-z]+$/gm)?.length, 2, 'two fenced blocks with languages');
    assert.equal(json.usage.total_tokens, json.usage.prompt_tokens + json.usage.completion_tokens);
  });

  it('gives different messages different replies, and the same message the same reply', async () => {
    const a = (await completed(chatBody('alpha question'))).choices[0].message.content;
    const b = (await completed(chatBody('beta question'))).choices[0].message.content;
    const a2 = (await completed(chatBody('alpha question'))).choices[0].message.content;
    assert.notEqual(a, b);
    assert.equal(a, a2);
  });

  it("answers the user's words, not the context attached before them (as the extension sends it)", async () => {
    const question = 'Why does it double?';
    const withContext = ['File `src/a.ts` (lines 1–2, typescript):', '', '````typescript', 'const fence = "```";', 'export const double = (x: number) => x * 2;', '````', '', 'Problems reported in `src/a.ts`:', '', '```', 'src/a.ts:1:1 error: nothing', '```', '', question].join('\n');
    const content: string = (await completed(chatBody(withContext))).choices[0].message.content;
    assert.ok(content.startsWith(`## Reply to “${question}”`), content.slice(0, 80));
    assert.match(content, /You wrote \*\*4 words\*\*/);
  });

  it('streams chunks that add up to the non-streamed reply, then usage, then [DONE]', async () => {
    const body = chatBody('Compare the two chat models', { stream_options: { include_usage: true } });
    const whole = (await completed(body)).choices[0].message.content;
    const stream = await streamed(body);
    assert.equal(stream.content, whole);
    assert.equal(stream.chunks[0].choices[0].delta.role, 'assistant');
    assert.ok(stream.chunks.length > 20, 'many content chunks');
    assert.ok(stream.chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === stream.chunks[0].id));
    assert.equal(stream.finishReason, 'stop');
    const last = stream.chunks[stream.chunks.length - 1];
    assert.deepEqual(last.choices, []);
    assert.equal(last.usage.completion_tokens, stream.chunks.length - 3);
    assert.ok(stream.done);
  });

  it('sends no usage chunk unless include_usage is set', async () => {
    const stream = await streamed(chatBody('hello'));
    assert.equal(stream.usage, null);
    assert.ok(stream.done);
  });

  it('paces by x-sim-tps without changing the content', async () => {
    const stream = await streamed(chatBody('hello there [echo]'), { 'x-sim-tps': '500' });
    assert.equal(stream.content, 'hello there');
  });

  it('truncates at max_tokens with finish_reason length', async () => {
    const json = await completed(chatBody('count please', { max_tokens: 5 }));
    assert.equal(json.choices[0].finish_reason, 'length');
    assert.equal(json.usage.completion_tokens, 5);
    const stream = await streamed(chatBody('count please', { max_tokens: 5 }));
    assert.equal(stream.chunks.filter((c) => c.choices[0]?.delta.content).length, 5);
    assert.equal(stream.finishReason, 'length');
    assert.equal(stream.content, json.choices[0].message.content);
  });

  it('cuts the output before a stop sequence', async () => {
    const json = await completed(chatBody('one two three four [echo]', { stop: ['three', 'zzz'] }));
    assert.equal(json.choices[0].message.content, 'one two ');
    assert.equal(json.choices[0].finish_reason, 'stop');
  });

  const weatherTool = {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather for a city',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
          days: { type: 'integer' },
          detailed: { type: 'boolean' },
        },
        required: ['city'],
      },
    },
  };

  it('calls the first tool with arguments built from its schema, streamed in fragments', async () => {
    const body = chatBody('Weather in Paris?', { tools: [weatherTool, { type: 'function', function: { name: 'other' } }] });
    const json = await completed(body);
    const message = json.choices[0].message;
    assert.equal(json.choices[0].finish_reason, 'tool_calls');
    assert.equal(message.content, null);
    assert.equal(message.tool_calls.length, 1);
    assert.equal(message.tool_calls[0].type, 'function');
    assert.equal(message.tool_calls[0].function.name, 'get_weather');
    const args = JSON.parse(message.tool_calls[0].function.arguments);
    assert.deepEqual(Object.keys(args), ['city', 'unit', 'days', 'detailed']);
    assert.equal(args.unit, 'celsius');
    assert.equal(typeof args.days, 'number');

    const stream = await streamed(body);
    assert.equal(stream.finishReason, 'tool_calls');
    assert.equal(stream.toolCalls.length, 1);
    assert.equal(stream.toolCalls[0].name, 'get_weather');
    assert.deepEqual(JSON.parse(stream.toolCalls[0].arguments), args);
    const fragments = stream.chunks.filter((c) => c.choices[0]?.delta.tool_calls?.[0].function.arguments);
    assert.ok(fragments.length >= 3, `arguments arrive in several fragments (got ${fragments.length})`);
  });

  it('calls the first two tools for [parallel], each at its own index', async () => {
    const search = { type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } } } } };
    const stream = await streamed(chatBody('both please [parallel]', { tools: [weatherTool, search] }));
    assert.deepEqual(stream.toolCalls.map((c) => c.name), ['get_weather', 'search']);
    assert.deepEqual(JSON.parse(stream.toolCalls[1].arguments), { query: 'both please' });
    assert.notEqual(stream.toolCalls[0].id, stream.toolCalls[1].id);
  });

  it('refuses for [refusal], in message.refusal and refusal deltas', async () => {
    const json = await completed(chatBody('do the bad thing [refusal]'));
    assert.equal(json.choices[0].message.content, null);
    assert.match(json.choices[0].message.refusal, /do the bad thing/);
    const stream = await streamed(chatBody('do the bad thing [refusal]'));
    const refusal = stream.chunks.map((c) => c.choices[0]?.delta.refusal ?? '').join('');
    assert.equal(refusal, json.choices[0].message.refusal);
    assert.equal(stream.content, '');
  });

  it('honours tool_choice none and a named tool', async () => {
    const none = await completed(chatBody('hi', { tools: [weatherTool], tool_choice: 'none' }));
    assert.equal(none.choices[0].finish_reason, 'stop');
    const named = await completed(
      chatBody('hi', { tools: [weatherTool, { type: 'function', function: { name: 'other' } }], tool_choice: { type: 'function', function: { name: 'other' } } }),
    );
    assert.equal(named.choices[0].message.tool_calls[0].function.name, 'other');
    assert.equal(named.choices[0].message.tool_calls[0].function.arguments, '{}');
  });

  it('answers a tool result with text that mentions it', async () => {
    const json = await completed({
      model: 'model-5.2',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp": 21, "sky": "clear"}' },
      ],
    });
    const content: string = json.choices[0].message.content;
    assert.equal(json.choices[0].finish_reason, 'stop');
    assert.ok(content.includes('`get_weather`'));
    assert.ok(content.includes('{"temp": 21, "sky": "clear"}'));
  });

  it('returns valid JSON content for response_format json_object', async () => {
    const json = await completed(chatBody('give me json', { response_format: { type: 'json_object' } }));
    const parsed = JSON.parse(json.choices[0].message.content);
    assert.equal(parsed.echo, 'give me json');
    const stream = await streamed(chatBody('give me json', { response_format: { type: 'json_object' } }));
    assert.deepEqual(JSON.parse(stream.content), parsed);
  });

  it('scripts replies with keywords: [chunks:N], [long:N], [reasoning], [hostile], [echo]', async () => {
    const chunks = await streamed(chatBody('bench [chunks:2000]'));
    assert.equal(chunks.chunks.filter((c) => c.choices[0]?.delta.content).length, 2000);
    assert.equal(chunks.content, 'tok '.repeat(2000));

    const long = (await completed(chatBody('essay [long:12]'))).choices[0].message.content as string;
    assert.equal(long.match(/^Paragraph \d+ of 12/gm)?.length, 12);

    const reasoning = await streamed(chatBody('think [reasoning] [echo]'));
    assert.match(reasoning.reasoning, /think/);
    const firstContent = reasoning.chunks.findIndex((c) => c.choices[0]?.delta.content);
    const lastReasoning = reasoning.chunks.map((c) => Boolean(c.choices[0]?.delta.reasoning_content)).lastIndexOf(true);
    assert.ok(lastReasoning < firstContent, 'reasoning comes first');
    const nonStreamed = await completed(chatBody('think [reasoning] [echo]'));
    assert.equal(nonStreamed.choices[0].message.reasoning_content, reasoning.reasoning);

    const hostile = (await completed(chatBody('[hostile]'))).choices[0].message.content as string;
    for (const marker of ['<script>', 'onerror=', '](javascript:', '![remote tracking image](https://']) assert.ok(hostile.includes(marker), marker);
  });

  it('[think]: the reasoning model writes its reasoning inline as <think>…</think>, tags split across chunks, and counts reasoning tokens', async () => {
    const body = chatBody('why [think] [echo]', { model: 'model-5.2', reasoning_effort: 'high', stream_options: { include_usage: true } });
    const stream = await streamed(body);
    const pieces = stream.chunks.map((c) => c.choices[0]?.delta.content).filter((p): p is string => typeof p === 'string' && p !== '');
    assert.deepEqual(pieces.slice(0, 2), ['<thi', 'nk>']);
    assert.match(stream.content, /^<think>The user asks about “why”\.[^<]*Effort: high\.<\/think>\n\nwhy$/);
    assert.equal(stream.reasoning, '');
    assert.ok(stream.usage.completion_tokens_details.reasoning_tokens > 0);
    assert.equal((await completed(body)).choices[0].message.content, stream.content);
    const { status, json } = await callJson(sim, '/v1/chat/completions', { body: chatBody('x', { model: 'model-5.2', reasoning_effort: 'extreme' }) });
    assert.equal(status, 400);
    assert.match(json.error.message, /reasoning_effort' must be one of low, medium, high/);
    assert.equal((await callJson(sim, '/v1/chat/completions', { body: chatBody('x', { reasoning_effort: 'extreme' }) })).status, 200, 'other models ignore it');
  });

  it('accepts content as an array of text parts', async () => {
    const json = await completed({ model: 'model-k3', messages: [{ role: 'user', content: [{ type: 'text', text: 'parts [echo]' }] }] });
    assert.equal(json.choices[0].message.content, 'parts');
  });

  const badRequests: Array<[string, { body?: unknown; rawBody?: string }, RegExp]> = [
    ['malformed JSON', { rawBody: '{"model": "model-k3", ' }, /not valid JSON/],
    ['an empty body', { rawBody: '' }, /body is required/],
    ['a JSON array', { body: [1] }, /JSON object/],
    ['no model', { body: { messages: [{ role: 'user', content: 'x' }] } }, /'model' is required/],
    ['no messages', { body: { model: 'model-k3' } }, /'messages'/],
    ['empty messages', { body: { model: 'model-k3', messages: [] } }, /'messages'/],
    ['a bad role', { body: { model: 'model-k3', messages: [{ role: 'wizard', content: 'x' }] } }, /role must be one of/],
    ['a message without content', { body: { model: 'model-k3', messages: [{ role: 'user' }] } }, /content is required/],
    ['the video model', { body: chatBody('x', { model: 'model-1.0-video-edit' }) }, /video model/],
    ['temperature and top_p', { body: chatBody('x', { temperature: 0.5, top_p: 0.5 }) }, /not both/],
    ['top_p above 1', { body: chatBody('x', { top_p: 1.5 }) }, /'top_p' must be a number from 0 to 1/],
    ['top_p below 0', { body: chatBody('x', { top_p: -0.1 }) }, /'top_p'/],
    ['a zero max_tokens', { body: chatBody('x', { max_tokens: 0 }) }, /'max_tokens'/],
    ['a non-array stop', { body: chatBody('x', { stop: 5 }) }, /'stop'/],
    ['a malformed tool', { body: chatBody('x', { tools: [{ name: 'x' }] }) }, /tools\[0\]/],
    ['a tool_choice naming an absent tool', { body: chatBody('x', { tools: [weatherTool], tool_choice: { type: 'function', function: { name: 'zz' } } }) }, /not in 'tools'/],
    ['an unknown fault', { body: chatBody('x [fault:explode]') }, /Unknown simulator fault 'explode'/],
  ];
  for (const [name, request, message] of badRequests) {
    it(`rejects ${name} with 400 invalid_request`, async () => {
      const { status, json } = await callJson(sim, '/v1/chat/completions', { method: 'POST', ...request });
      assert.equal(status, 400);
      assert.equal(json.error.code, 'invalid_request');
      assert.equal(json.error.type, 'error');
      assert.match(json.error.message, message);
    });
  }

  it('answers unknown models, routes and methods with 404/405', async () => {
    const model = await callJson(sim, '/v1/chat/completions', { body: chatBody('x', { model: 'model-9' }) });
    assert.equal(model.status, 404);
    assert.deepEqual(model.json.error, { code: 'model_not_found', message: "The model 'model-9' does not exist", type: 'error' });
    const route = await callJson(sim, '/v1/embeddings', { body: {} });
    assert.equal(route.status, 404);
    assert.equal(route.json.error.code, 'not_found');
    const outside = await callJson(sim, '/health');
    assert.equal(outside.status, 404);
    const method = await callJson(sim, '/v1/chat/completions');
    assert.equal(method.status, 405);
    assert.equal(method.headers.get('allow'), 'POST');
  });
});
