// The small project and the past chats the README's chat pictures show (scripts/screenshot-chat-features.mjs).

export const RATE_LIMITER = `// A token bucket per API key: each request takes a token; tokens refill at a steady rate.
export interface BucketState {
  tokens: number;
  updatedAt: number;
}

export interface LimiterOptions {
  capacity: number;
  refillPerSecond: number;
  now?: () => number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, BucketState>();

  constructor(private readonly options: LimiterOptions) {}

  /** True when the request may go ahead; false means answer 429. */
  take(key: string): boolean {
    const now = this.options.now?.() ?? Date.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.options.capacity, updatedAt: now };
    const elapsed = (now - bucket.updatedAt) / 1000;
    bucket.tokens = Math.min(this.options.capacity, bucket.tokens + elapsed * this.options.refillPerSecond);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** Seconds until the next token, for the Retry-After header. */
  retryAfter(key: string): number {
    const bucket = this.buckets.get(key);
    if (!bucket || bucket.tokens >= 1) return 0;
    return Math.ceil((1 - bucket.tokens) / this.options.refillPerSecond);
  }
}
`;

export const SERVER = `import { createServer } from 'node:http';
import { RateLimiter } from './rateLimiter';

const limiter = new RateLimiter({ capacity: 20, refillPerSecond: 5 });

createServer((req, res) => {
  const key = String(req.headers.authorization ?? 'anonymous');
  if (!limiter.take(key)) {
    res.writeHead(429, { 'Retry-After': String(limiter.retryAfter(key)) });
    res.end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ ok: true }));
}).listen(8080);
`;

/** Long API notes (about 40 KB): more than a small context window holds. */
export function apiNotes() {
  const endpoints = ['/v1/models', '/v1/chat/completions', '/v1/videos', '/v1/videos/{id}', '/v1/images/generations', '/v1/audio/speech'];
  const sections = ['# Gateway API notes', ''];
  for (let round = 0; round < 8; round++) {
    for (const endpoint of endpoints) {
      sections.push(
        `## ${endpoint} (revision ${round + 1})`,
        '',
        `Requests to ${endpoint} carry the key as a bearer token. The gateway answers 401 when the key is missing or wrong,`,
        'and 429 with a Retry-After header (seconds) when the key has used its requests for the moment. Clients wait that',
        'long before they try again, and never retry a request that may have been charged. A 5xx answer is retried with',
        'exponential backoff and jitter, at most three times, only for requests that are safe to repeat.',
        '',
        '| Status | Meaning | What the client does |',
        '| --- | --- | --- |',
        '| 400 | The request is malformed | Show the message; do not retry |',
        '| 401 | No key, or a wrong one | Ask for the key |',
        '| 429 | Too many requests | Wait for Retry-After |',
        '| 503 | The gateway is busy | Back off and retry |',
        '',
      );
    }
  }
  return sections.join('\n');
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Chats from the last weeks, so the view shows every group; times are relative to `now`. */
export function seededChats(now) {
  const chats = [
    ['Write a migration that adds an index on jobs.created_at', 'model-5.2', 2, 2 * HOUR],
    ['Explain this regular expression for semantic versions', 'model-k3', 1, 3 * HOUR],
    ['Compare retry strategies for the video poller', 'model-5.2', 3, DAY + HOUR],
    ['Summarise the gateway API error codes', 'model-k3', 2, DAY + 3 * HOUR],
    ['Draft release notes for 0.9.0', 'model-k3', 5, 3 * DAY],
    ['What does this stack trace mean?', 'model-5.2', 1, 5 * DAY],
    ['Set up an ESLint flat config for a monorepo', 'model-k3', 6, 12 * DAY],
    ['Benchmark JSON parsing in Node 24', 'model-5.2', 2, 40 * DAY],
  ];
  return chats.map(([title, model, questions, age], index) => {
    const at = now - age;
    const turns = [];
    for (let q = 0; q < questions; q++) {
      const created = at - (questions - q) * 60_000;
      turns.push({ id: `u${q}`, role: 'user', createdAt: created, content: q === 0 ? title : `Follow-up ${q}: can you say more?` });
      turns.push({ id: `a${q}`, role: 'assistant', createdAt: created + 5000, model, content: `Here is what I found about “${title}”.`, reasoning: '', refusal: '', toolCalls: [], status: 'complete', finishReason: 'stop', usage: { prompt: 120, completion: 80, total: 200 } });
    }
    const settings = { model, systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false };
    return { id: `seeded-chat-${index + 1}`, title, createdAt: at - questions * 60_000, updatedAt: at, settings, turns };
  });
}
