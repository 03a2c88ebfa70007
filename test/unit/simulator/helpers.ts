// Shared helpers for the simulator tests: authenticated requests and a small SSE reader.
import type { Simulator } from '../../simulator';

export interface CallOptions {
  method?: string;
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function call(sim: Simulator, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? sim.apiKey : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${sim.origin}${path}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    signal: options.signal,
  });
}

export async function callJson(sim: Simulator, path: string, options: CallOptions = {}): Promise<{ status: number; headers: Headers; json: any }> {
  const response = await call(sim, path, options);
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: JSON.parse(text) };
}

export function chatBody(content: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'model-k3', messages: [{ role: 'user', content }], ...extra };
}

/** The `data:` payloads of an SSE body, in order. */
export function sseData(text: string): string[] {
  return text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice('data: '.length));
}

export interface StreamSummary {
  chunks: any[];
  content: string;
  reasoning: string;
  finishReason: string | null;
  usage: any;
  done: boolean;
  toolCalls: Array<{ id?: string; name?: string; arguments: string }>;
}

export function summarizeStream(text: string): StreamSummary {
  const summary: StreamSummary = { chunks: [], content: '', reasoning: '', finishReason: null, usage: null, done: false, toolCalls: [] };
  for (const data of sseData(text)) {
    if (data === '[DONE]') {
      summary.done = true;
      continue;
    }
    const chunk = JSON.parse(data);
    summary.chunks.push(chunk);
    if (chunk.usage) summary.usage = chunk.usage;
    for (const choice of chunk.choices) {
      summary.content += choice.delta.content ?? '';
      summary.reasoning += choice.delta.reasoning_content ?? '';
      if (choice.finish_reason) summary.finishReason = choice.finish_reason;
      for (const call of choice.delta.tool_calls ?? []) {
        const slot = (summary.toolCalls[call.index] ??= { arguments: '' });
        if (call.id) slot.id = call.id;
        if (call.function?.name) slot.name = call.function.name;
        slot.arguments += call.function?.arguments ?? '';
      }
    }
  }
  return summary;
}

/** A controllable clock for the video schedule and rate limits. */
export class ManualClock {
  constructor(public ms = 1_700_000_000_000) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}
