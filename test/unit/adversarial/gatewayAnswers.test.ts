// Gateway answers are hostile input. Each parser of them is fed about 1 MB of input built to make a backtracking
// regex or a rescanning loop take minutes, inside a worker that is ended after 20 s: a hang detector, not a timing
// assertion (the work takes milliseconds). Then the bounds that go with them: base64 is sized before it is decoded,
// and a chat reply stops at 32 MB of text with a typed error that keeps what was received.

import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { ChatStreamAccumulator, ChatStreamParser, MAX_REPLY_CHARS } from '../../../src/gateway/chatStream';
import { GatewayClient } from '../../../src/gateway/client';
import { adviceFor } from '../../../src/ui/core/errorAdvice';
import { describeErrorBody } from '../../../src/gateway/errors';
import { ENTRY_CHARS } from '../../../src/gateway/replyBudget';
import { base64DecodedLength } from '../../../src/util/base64';
import { encodePng } from '../../simulator/png';
import { runInWorker } from '../../util/inWorker';
import { readImageAnswer } from './gatewayDrivers';
import { createHarness } from '../chat/harness';
import { rejectionOf } from '../gateway/helpers/rejection';
import { FailureMapper } from '../../../src/gateway/failures';
import { realClock } from '../../../src/util/clock';
import { settle } from '../../util/fakeClock';
import { chunkFrame, DONE_FRAME, sseHead, startServer, type TestServer } from '../gateway/helpers/server';

const DRIVERS = join(__dirname, 'gatewayDrivers.js');
const MB = 1024 * 1024;
const inWorker = (name: string, ...args: unknown[]): Promise<unknown> => runInWorker(DRIVERS, name, args, 20_000);

describe('adversarial gateway answers (each parser in a worker, ended after 20 s)', function () {
  this.timeout(40_000);

  it('b64_json of "A", a megabyte of spaces and one bad character is refused at once', async () => {
    const message = await inWorker('readImageAnswer', { b64_json: `A${' '.repeat(MB)}!` }, 25 * MB);
    assert.match(String(message), /^bad_response: .*its b64_json is not base64\./);
  });

  it('a data: link of the same shape is refused at once too', async () => {
    const message = await inWorker('readImageAnswer', { url: `data:image/png;base64,A${' '.repeat(16_000)}!` }, 25 * MB);
    assert.match(String(message), /its b64_json is not base64\./);
  });

  it('an SSE chunk of one CR and a megabyte of line feeds is decoded in one pass', async () => {
    const events = await inWorker('decodeSse', `data: x\r${'\n'.repeat(MB)}data: y\n\n`, MB + 100);
    assert.equal(events, 2);
  });

  it('a chat stream of a megabyte of CR-ended events with a new id each', async () => {
    let text = '';
    for (let i = 0; text.length < MB; i++) text += `data: {"id":"c${i}","model":"m${i}","choices":[{"index":0,"delta":{"content":"a"}}]}\r\r`;
    const result = (await inWorker('parseChatStream', `${text}data: [DONE]\r\r`, 256 * 1024)) as { outcome: string; contentChars: number };
    assert.equal(result.outcome, 'complete');
    assert.ok(result.contentChars > 10_000);
  });

  for (const [name, body] of [
    ['unclosed <', '<'.repeat(MB)],
    ['<title without an end', '<title'.repeat(MB / 6)],
    ['<title> without </title>', '<title>'.repeat(MB / 7)],
    ['<script> without </script>', '<script>'.repeat(MB / 8)],
    ['<h1> without </h1>', `<html>${'<h1>x'.repeat(MB / 5)}`],
  ] as const) {
    it(`an HTML error page of ${name} (1 MB)`, async () => {
      const message = String(await inWorker('describeHttpError', body, 'text/html'));
      assert.match(message, /^HTTP 502 Bad Gateway/);
      assert.ok(message.length < 600);
    });
  }

  it('a job id of a megabyte of dots and slashes, and a model id of a megabyte of separators', async () => {
    assert.match(String(await inWorker('checkJobId', `${'%2e%2E/'.repeat(MB / 7)}..`)), /has a "\." or "\.\." path segment/);
    assert.equal(await inWorker('modelKind', `${'-_./:'.repeat(MB / 5)}x`), 'chat');
  });
});

describe('gateway: HTML error pages read without regexes', () => {
  it('reads the title (or h1) of a proxy page, without scripts and styles, entities decoded', () => {
    const page = '<!DOCTYPE html><HTML><head><style>p{}</style><TITLE class="x">502 &amp; Bad&nbsp;Gateway</TITLE></head><body><h1>nginx</h1></body></HTML>';
    assert.equal(describeErrorBody(502, page, 'text/html').message, 'HTTP 502 Bad Gateway from an intermediary: 502 & Bad Gateway');
    const noTitle = '<html><script>var a = "<b>";</script><body><p>Upstream <b>timed</b> out</p></body></html>';
    assert.equal(describeErrorBody(504, noTitle, 'text/html').message, 'HTTP 504 Gateway Timeout from an intermediary: Upstream timed out');
    assert.equal(describeErrorBody(502, '<h1 id="t">Bad &lt;gateway&gt;</h1>', undefined).message, 'HTTP 502 Bad Gateway from an intermediary: Bad <gateway>');
    assert.equal(describeErrorBody(502, '<p>a < b', 'text/html').message, 'HTTP 502 Bad Gateway from an intermediary: a < b');
  });
});

describe('gateway: base64 sized before it is decoded', () => {
  it('counts the bytes from the characters, whitespace and padding aside, and refuses what is not base64', () => {
    for (const bytes of [0, 1, 2, 3, 4, 5, 100]) {
      const b64 = Buffer.alloc(bytes, 7).toString('base64');
      assert.equal(base64DecodedLength(b64), bytes, b64);
      assert.equal(base64DecodedLength(`${b64.slice(0, 2)} \n\t${b64.slice(2)}\r\n`), bytes);
    }
    for (const bad of ['A!', 'AB=C', 'AB===', 'é', 'ab-_', 'AB= =x']) assert.equal(base64DecodedLength(bad), undefined, bad);
  });

  it('refuses an image over the limit by its size, with the size in the message', () => {
    const png = encodePng(40, 40, new Uint8Array(40 * 40 * 3).fill(9));
    const b64 = Buffer.from(png).toString('base64').replace(/(.{76})/g, '$1\n');
    assert.equal(readImageAnswer({ b64_json: b64 }, png.length), `image/png ${png.length}`);
    assert.match(readImageAnswer({ b64_json: b64 }, png.length - 1), /^too_large: .*it is larger than the limit of .* \(.*\)\.$/);
  });
});

describe('gateway: a chat reply is bounded', () => {
  const frame = (delta: Record<string, unknown>, index = 0): string => `data: ${JSON.stringify({ id: 'c', choices: [{ index, delta }] })}\n\n`;
  const push = (parser: ChatStreamParser, text: string): void => parser.push(new TextEncoder().encode(text));
  const failureKind = (parser: ChatStreamParser): string | undefined => parser.accumulator.failure?.kind;

  it('counts content, reasoning, refusal and tool-call arguments of every choice, and keeps the text up to the cap', () => {
    const deltas: string[] = [];
    const parser = new ChatStreamParser((d) => deltas.push(JSON.stringify(d)), 33 + 2 * ENTRY_CHARS);
    push(parser, frame({ content: 'abcde' }) + frame({ reasoning_content: 'fghij' }) + frame({ refusal: 'k' }));
    push(parser, frame({ tool_calls: [{ index: 0, id: 't', function: { name: 'f', arguments: '{"a":1}' } }] }));
    push(parser, frame({ content: 'second choice' }, 1));
    assert.equal(parser.accumulator.failure, null);
    push(parser, frame({ content: 'more than fits' }) + frame({ content: 'never read' }));
    const acc = parser.accumulator;
    assert.deepEqual(acc.failure, { kind: 'reply-too-long', payload: 33 + 2 * ENTRY_CHARS });
    const result = acc.result();
    assert.equal(result.content, 'abcdemo');
    assert.equal(result.content.length + result.reasoning.length + result.refusal.length + result.toolCalls[0].arguments.length + 'second choice'.length, 33, 'and a tool call and a second choice, ENTRY_CHARS each');
    assert.equal(deltas.at(-1), JSON.stringify({ content: 'mo' }), 'the caller saw exactly the text that was kept');
  });

  it('never keeps half a surrogate pair, and caps a non-streamed completion the same way', () => {
    const parser = new ChatStreamParser(undefined, 3);
    push(parser, frame({ content: 'ab😀' }));
    assert.equal(parser.accumulator.result().content, 'ab');
    const acc = new ChatStreamAccumulator(undefined, 4);
    acc.handleCompletion({ choices: [{ index: 0, message: { content: 'too long' } }] });
    assert.equal(acc.failure?.kind, 'reply-too-long');
    assert.equal(acc.done, false);
    assert.equal(acc.result().content, 'too ');
  });

  it('caps at 32 MB by default', () => {
    const parser = new ChatStreamParser();
    const piece = 'x'.repeat(8 * MB);
    for (let i = 0; i < 4; i++) push(parser, frame({ content: piece }));
    assert.equal(failureKind(parser), undefined);
    push(parser, frame({ reasoning: 'y' }));
    assert.equal(failureKind(parser), 'reply-too-long');
    assert.equal(parser.accumulator.result().content.length, MAX_REPLY_CHARS);
    assert.equal(MAX_REPLY_CHARS, 32 * MB);
  });

  it('reaches the chat panel as an interrupted reply with its text and the reason', async () => {
    const parser = new ChatStreamParser(undefined, 12);
    push(parser, frame({ content: 'Some text, then more' }));
    const failures = new FailureMapper({ origin: 'http://127.0.0.1:9', apiKey: 'sk-x', timeoutMs: 1000, idleTimeoutMs: 1000, clock: realClock });
    const error = failures.stream(parser.accumulator.failure!, parser.accumulator, 'req-1');
    const h = createHarness();
    assert.equal(h.controller.send('Go on'), true);
    await settle();
    h.gateway.calls[0].emit({ content: 'Some text, ' });
    h.gateway.calls[0].reject(error);
    await h.controller.idle;
    const turn = h.session.turns.at(-1);
    assert.ok(turn?.role === 'assistant');
    assert.equal(turn.status, 'interrupted');
    assert.equal(turn.content, 'Some text, t', 'the text up to the cap is kept, also what only the partial result had');
    assert.match(turn.error?.message ?? '', /^The reply passed 12 B of text .* It was stopped there; the text received before it is kept\.$/);
    assert.deepEqual(turn.error?.actions.map((a) => a.title), ['Open Logs']);
  });

  it('counts each new tool call or choice, so a stream of empty ones stops too', () => {
    const parser = new ChatStreamParser(undefined, ENTRY_CHARS * 10);
    for (let i = 0; i < 1000 && failureKind(parser) === undefined; i++) {
      push(parser, frame({ tool_calls: [{ index: i, id: `t${i}`, function: { name: 'f', arguments: '' } }] }) + frame({}, i + 1));
    }
    assert.equal(failureKind(parser), 'reply-too-long');
    assert.equal(parser.accumulator.result().toolCalls.length + parser.accumulator.choices().length - 1, 10);
  });

  it('notes at most 16 distinct response ids, models and object types (a hostile stream may send a new one per chunk)', () => {
    const parser = new ChatStreamParser();
    for (let i = 0; i < 100; i++) push(parser, `data: ${JSON.stringify({ id: `c${i}`, model: `m${i}`, object: `o${i}`, choices: [{ index: 0, delta: { content: 'a' } }] })}\n\n`);
    const acc = parser.accumulator;
    assert.deepEqual([acc.responseIdsSeen.length, acc.modelsSeen.length, acc.objectTypesSeen.length], [16, 16, 16]);
    assert.equal(acc.result().content.length, 100);
  });

  describe('through the client', function () {
    this.timeout(60_000);
    let server: TestServer;
    let written = 0;
    before(async () => {
      server = await startServer(async (_req, res) => {
        sseHead(res);
        written = 0;
        const frameOf8Mb = chunkFrame('z'.repeat(8 * MB));
        res.write(chunkFrame('Hello'));
        for (let i = 0; i < 6 && !res.destroyed; i++) {
          written++;
          if (!res.write(frameOf8Mb)) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
        }
        res.end(DONE_FRAME);
      });
    });
    after(() => server.close());

    it('fails an endless reply with too_large, keeps its first 32 MB, and says so in the one wording of failures', async () => {
      const client = new GatewayClient({ baseUrl: server.baseUrl, apiKey: 'sk-long', maxRetries: 0 });
      try {
        const error = await rejectionOf(client.chat({ model: 'm', messages: [{ role: 'user', content: 'go on' }], stream: true }));
        assert.equal(error.code, 'too_large');
        assert.equal(error.kind, 'bad_response');
        assert.equal(error.partial?.content.length, MAX_REPLY_CHARS);
        assert.ok(error.partial?.content.startsWith('Hellozzz'));
        assert.ok(written < 6, 'the client stopped reading at the cap');
        assert.match(error.message, /^The reply passed 32\.0 MB of text \(reasoning and tool-call arguments included\), the most one reply may hold\. It was stopped there; the text received before it is kept\.$/);
        const advice = adviceFor(error);
        assert.equal(advice.message, error.message);
        assert.deepEqual(advice.actions.map((a) => a.command), ['modelGateway.openLogs'], 'no media limit to change for a chat reply');
      } finally {
        await client.close();
      }
    });
  });
});
