// Every `.sse` fixture, replayed whole, byte by byte and in its recorded chunks, through the pure decoders.

import * as assert from 'node:assert/strict';
import { ChatStreamParser, parseToolArguments } from '../../../src/gateway/chatStream';
import { SseDecoder } from '../../../src/gateway/sse';
import type { ChatDelta } from '../../../src/gateway/types';
import { deliveries, loadCases, type ExpectedStreamResult, type FixtureCase } from './fixtures';

const cases = loadCases();

function comparableExpected(result: ExpectedStreamResult) {
  return {
    done: result.done_sentinel_seen,
    error: result.error,
    jsonChunks: result.json_chunks_processed,
    responseIds: result.response_ids_seen,
    models: result.models_seen,
    objectTypes: result.object_types_seen,
    usage: result.usage,
    choices: result.choices.map((c) => ({
      index: c.index,
      role: c.role,
      content: c.content ?? '',
      reasoning: c.reasoning ?? '',
      refusal: c.refusal ?? '',
      toolCalls: c.tool_calls.map((t) => ({ id: t.id, type: t.type, name: t.name, arguments: t.arguments })),
      finishReason: c.finish_reason,
    })),
  };
}

function comparableActual(parser: ChatStreamParser) {
  const acc = parser.accumulator;
  return {
    done: acc.done,
    error: acc.failure,
    jsonChunks: acc.jsonChunks,
    responseIds: acc.responseIdsSeen,
    models: acc.modelsSeen,
    objectTypes: acc.objectTypesSeen,
    usage: acc.usage,
    choices: acc.choices(),
  };
}

/** Re-assembles what onDelta reported, to check that it tells the same story as the result. */
function deltaLog() {
  const log = { content: '', reasoning: '', refusal: '', args: [] as string[], calls: 0 };
  const onDelta = (d: ChatDelta): void => {
    log.calls++;
    log.content += d.content ?? '';
    log.reasoning += d.reasoning ?? '';
    log.refusal += d.refusal ?? '';
    for (const t of d.toolCalls ?? []) log.args[t.index] = (log.args[t.index] ?? '') + (t.arguments ?? '');
  };
  return { log, onDelta };
}

function runStream(fixture: FixtureCase, chunks: Uint8Array[]) {
  const { log, onDelta } = deltaLog();
  const parser = new ChatStreamParser(onDelta);
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return { parser, log };
}

describe('gateway: SSE framing fixtures (SseDecoder)', () => {
  for (const fixture of cases.filter((c) => c.expected.kind === 'sse-framing')) {
    for (const delivery of deliveries(fixture)) {
      it(`${fixture.name} — ${delivery.label}`, () => {
        const events: Array<{ event: string; data: string; last_event_id: string }> = [];
        const comments: string[] = [];
        const retries: number[] = [];
        const decoder = new SseDecoder({
          onEvent: (event, data, lastEventId) => events.push({ event, data, last_event_id: lastEventId }),
          onComment: (text) => comments.push(text),
          onRetry: (ms) => retries.push(ms),
        });
        for (const chunk of delivery.chunks) decoder.push(chunk);
        decoder.end();
        const sse = fixture.expected.sse!;
        assert.deepEqual(events, sse.events);
        // eventsource-parser drops one space after the colon of a comment, as it does for field values; the
        // spec ignores comments, so only that normalisation differs from the recorded text.
        assert.deepEqual(comments, sse.comments.map((c) => (c.startsWith(' ') ? c.slice(1) : c)));
        assert.deepEqual(retries, sse.retries);
      });
    }
  }
});

describe('gateway: chat stream fixtures (ChatStreamParser)', () => {
  for (const fixture of cases.filter((c) => c.expected.kind === 'chat-completions-stream')) {
    const lenient = fixture.expected.lenient_line_mode_result;
    for (const delivery of deliveries(fixture)) {
      it(`${fixture.name} — ${delivery.label}`, () => {
        const { parser, log } = runStream(fixture, delivery.chunks);
        const expected = lenient ?? fixture.expected.result!;
        assert.deepEqual(comparableActual(parser), comparableExpected(expected));
        if (lenient) {
          // The strict WHATWG reading dispatches nothing (the case's `result`); only the line-mode fallback did.
          assert.equal(fixture.expected.result!.json_chunks_processed, 0);
          assert.equal(parser.usedLenientFallback, true);
        } else {
          assert.equal(parser.usedLenientFallback, false);
        }
        const first = parser.accumulator.choices().find((c) => c.index === 0);
        assert.equal(log.content, first?.content ?? '');
        assert.equal(log.reasoning, first?.reasoning ?? '');
        assert.equal(log.refusal, first?.refusal ?? '');
        assert.deepEqual(log.args, (first?.toolCalls ?? []).map((t) => t.arguments));
      });
    }
  }

  it('parses tool arguments like the fixtures expect ("" is {} for a tool without parameters)', () => {
    let checked = 0;
    for (const fixture of cases.filter((c) => c.expected.kind === 'chat-completions-stream')) {
      for (const choice of fixture.expected.result!.choices) {
        for (const call of choice.tool_calls as Array<{ arguments: string; arguments_parsed?: unknown; arguments_is_valid_json?: boolean }>) {
          const parsed = parseToolArguments(call.arguments);
          if (call.arguments === '') assert.deepEqual(parsed, {});
          else if (call.arguments_is_valid_json) assert.deepEqual(parsed, call.arguments_parsed);
          else assert.equal(parsed, undefined);
          checked++;
        }
      }
    }
    assert.ok(checked >= 15);
    assert.equal(parseToolArguments('[1]'), undefined);
    assert.equal(parseToolArguments('{"a":'), undefined);
  });

  it('covers every streamed fixture (65 .sse cases)', () => {
    assert.equal(cases.filter((c) => c.expected.kind !== 'http-response').length, 65);
  });
});
