import * as assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startSimulator, type Simulator } from '../../simulator';

describe('simulator: the official openai client', () => {
  let sim: Simulator;
  let client: OpenAI;

  before(async () => {
    sim = await startSimulator();
    client = new OpenAI({ apiKey: sim.apiKey, baseURL: sim.baseUrl, maxRetries: 0 });
  });
  after(async () => {
    await sim.close();
  });

  it('lists models', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    assert.deepEqual(ids, ['model-k3', 'model-5.2', 'model-1.0-video-edit', 'model-image-1.0', 'model-speech-1.0', 'model-transcribe-1.0']);
  });

  it('creates a non-streamed completion', async () => {
    const completion = await client.chat.completions.create({ model: 'model-5.2', messages: [{ role: 'user', content: 'hello from openai [echo]' }] });
    assert.equal(completion.choices[0].message.content, 'hello from openai');
    assert.equal(completion.choices[0].finish_reason, 'stop');
    assert.ok(completion.usage!.total_tokens > 0);
  });

  it('streams a completion to the end, with usage', async () => {
    const stream = await client.chat.completions.create({
      model: 'model-k3',
      messages: [{ role: 'user', content: 'stream please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    assert.ok(content.includes('stream please'));
    assert.equal(finish, 'stop');
    assert.ok(usage && usage.completion_tokens > 0);
  });

  it('accumulates a streamed tool call', async () => {
    const runner = client.chat.completions.stream({
      model: 'model-k3',
      messages: [{ role: 'user', content: 'search for cats' }],
      tools: [{ type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } } } } }],
    });
    const final = await runner.finalChatCompletion();
    const call = final.choices[0].message.tool_calls![0];
    assert.equal(call.type, 'function');
    assert.deepEqual(call.type === 'function' && JSON.parse(call.function.arguments), { query: 'search for cats' });
  });

  it('surfaces gateway errors as typed API errors', async () => {
    const denied = new OpenAI({ apiKey: sim.keys.disabled, baseURL: sim.baseUrl, maxRetries: 0 });
    await assert.rejects(denied.models.list(), (error: unknown) => error instanceof OpenAI.PermissionDeniedError && error.status === 403);
    const missing = client.chat.completions.create({ model: 'model-x', messages: [{ role: 'user', content: 'x' }] });
    await assert.rejects(missing, (error: unknown) => error instanceof OpenAI.NotFoundError);
  });
});
