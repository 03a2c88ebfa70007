// Loads the shared SSE / HTTP-body conformance fixtures: ../shared/fixtures/sse relative to the repository root,
// or the copy in test/fixtures/sse when the shared folder is not there.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '../../../..');

export const fixtureDir: string = [join(repoRoot, '..', 'shared', 'fixtures', 'sse'), join(repoRoot, 'test', 'fixtures', 'sse')].find(
  (dir) => existsSync(join(dir, 'README.md')),
) ?? join(repoRoot, 'test', 'fixtures', 'sse');

export interface ExpectedChoice {
  index: number;
  role: string | null;
  content: string | null;
  reasoning: string | null;
  refusal: string | null;
  tool_calls: Array<{ index: number; id: string; type: string; name: string; arguments: string }>;
  finish_reason: string | null;
}

export interface ExpectedStreamResult {
  done_sentinel_seen: boolean;
  error: { kind: string; payload: unknown } | null;
  json_chunks_processed: number;
  response_ids_seen: string[];
  models_seen: string[];
  object_types_seen: string[];
  choices: ExpectedChoice[];
  usage: Record<string, unknown> | null;
}

export interface Expected {
  case: string;
  file: string;
  kind: 'sse-framing' | 'chat-completions-stream' | 'http-response';
  delivery_chunk_byte_lengths?: number[];
  sse?: {
    events: Array<{ event: string; data: string; last_event_id: string }>;
    comments: string[];
    retries: number[];
  };
  sse_event_count?: number;
  result?: ExpectedStreamResult;
  lenient_line_mode_result?: ExpectedStreamResult;
  expected_client_error?: { message: string; code: string; type: string };
  status?: number;
  headers?: Record<string, string[]>;
  body_json?: unknown;
  request?: string;
  model_ids?: string[];
  openai_node_should_retry?: boolean;
  openai_node_error_class?: string;
  client_must?: string;
}

export interface FixtureCase {
  name: string;
  bytes: Buffer;
  expected: Expected;
}

export function loadCases(): FixtureCase[] {
  return readdirSync(fixtureDir)
    .filter((f) => f.endsWith('.expected.json'))
    .sort()
    .map((f) => {
      const expected = JSON.parse(readFileSync(join(fixtureDir, f), 'utf8')) as Expected;
      return { name: expected.case, bytes: readFileSync(join(fixtureDir, expected.file)), expected };
    });
}

/** The three deliveries every `.sse` is replayed with: whole, byte by byte, and the recorded chunks if any. */
export function deliveries(fixture: FixtureCase): Array<{ label: string; chunks: Uint8Array[] }> {
  const { bytes } = fixture;
  const out: Array<{ label: string; chunks: Uint8Array[] }> = [
    { label: 'whole body', chunks: [bytes] },
    { label: 'one byte per chunk', chunks: Array.from(bytes, (_, i) => bytes.subarray(i, i + 1)) },
  ];
  const lengths = fixture.expected.delivery_chunk_byte_lengths;
  if (lengths) {
    const chunks: Uint8Array[] = [];
    let at = 0;
    for (const n of lengths) {
      chunks.push(bytes.subarray(at, at + n));
      at += n;
    }
    if (at !== bytes.length) throw new Error(`${fixture.name}: delivery lengths cover ${at} of ${bytes.length} bytes`);
    out.push({ label: 'recorded delivery chunks', chunks });
  }
  return out;
}
