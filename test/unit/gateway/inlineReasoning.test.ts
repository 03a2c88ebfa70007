// Inline `<think>` reasoning: split out of the content whatever the chunking, and only where it opens the answer.
import * as assert from 'node:assert/strict';
import { InlineReasoningSplitter, splitInlineReasoning, type SplitText } from '../../../src/gateway/inlineReasoning';
import { ChatStreamParser } from '../../../src/gateway/chatStream';
import type { ChatDelta } from '../../../src/gateway/types';

function streamed(chunks: readonly string[]): SplitText {
  const splitter = new InlineReasoningSplitter();
  const out: SplitText = { content: '', reasoning: '' };
  for (const piece of [...chunks.map((c) => splitter.push(c)), splitter.end()]) {
    out.content += piece.content;
    out.reasoning += piece.reasoning;
  }
  return out;
}

/** Every way of cutting `text` in two and in three places near the tags (and one character at a time). */
function chunkings(text: string): string[][] {
  const all: string[][] = [[text], [...text]];
  for (let i = 1; i < text.length; i++) {
    all.push([text.slice(0, i), text.slice(i)]);
    for (let j = i + 1; j < Math.min(text.length, i + 12); j++) all.push([text.slice(0, i), text.slice(i, j), text.slice(j)]);
  }
  return all;
}

describe('inline <think> reasoning', () => {
  const cases: Array<[string, SplitText]> = [
    ['<think>Count the r letters.</think>\n\nThere are three.', { reasoning: 'Count the r letters.', content: 'There are three.' }],
    ['\n  <thinking>a < b, and </think> is not my tag</thinking>Answer', { reasoning: 'a < b, and </think> is not my tag', content: 'Answer' }],
    ['<think>one</think><think>two</think>\nDone', { reasoning: 'onetwo', content: 'Done' }],
    ['Plain answer with <think>inside</think> it', { reasoning: '', content: 'Plain answer with <think>inside</think> it' }],
    ['\nLeading newline kept', { reasoning: '', content: '\nLeading newline kept' }],
    ['<thin ice', { reasoning: '', content: '<thin ice' }],
    ['<think>ran out of tokens while thinking </thi', { reasoning: 'ran out of tokens while thinking </thi', content: '' }],
    ['<thi', { reasoning: '', content: '<thi' }],
    ['```html\n<think>x</think>\n```', { reasoning: '', content: '```html\n<think>x</think>\n```' }],
    ['<think></think>   ', { reasoning: '', content: '' }],
  ];

  for (const [text, expected] of cases) {
    it(`splits ${JSON.stringify(text.slice(0, 40))} the same under every chunking`, () => {
      for (const chunks of chunkings(text)) assert.deepEqual(streamed(chunks), expected, JSON.stringify(chunks));
      assert.deepEqual(splitInlineReasoning(text), expected);
    });
  }

  it('holds back at most a tag\'s length inside a block, so reasoning streams as it comes', () => {
    const splitter = new InlineReasoningSplitter();
    assert.deepEqual(splitter.push('<think>step one'), { content: '', reasoning: 'step one' });
    assert.deepEqual(splitter.push(' and two </th'), { content: '', reasoning: ' and two ' });
    assert.deepEqual(splitter.push('ink>\n\nAns'), { content: 'Ans', reasoning: '' });
    assert.equal(splitter.passThrough, true);
    assert.deepEqual(splitter.push('wer <think>'), { content: 'wer <think>', reasoning: '' });
  });

  it('a long run of leading whitespace ends the wait for a tag (nothing is held without bound)', () => {
    const splitter = new InlineReasoningSplitter();
    for (let i = 0; i < 5000; i++) splitter.push(' ');
    assert.equal(splitter.passThrough, true);
  });

  it('the chat stream moves a <think> block split across SSE events into the reasoning, deltas included', () => {
    const pieces = ['<th', 'ink>Let me ', 'think.</', 'think>', '\n\n', 'The answer', ' is 4.'];
    const frames = pieces.map((p) => `data: ${JSON.stringify({ id: 'c1', model: 'm', choices: [{ index: 0, delta: { content: p }, finish_reason: null }] })}\n\n`);
    frames.push(`data: ${JSON.stringify({ id: 'c1', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`);
    const deltas: ChatDelta[] = [];
    const parser = new ChatStreamParser((d) => deltas.push(d));
    for (const frame of frames) parser.push(new TextEncoder().encode(frame));
    parser.end();
    const result = parser.accumulator.result();
    assert.equal(result.content, 'The answer is 4.');
    assert.equal(result.reasoning, 'Let me think.');
    assert.equal(deltas.map((d) => d.content ?? '').join(''), 'The answer is 4.');
    assert.equal(deltas.map((d) => d.reasoning ?? '').join(''), 'Let me think.');
  });

  it('text held back when the stream ends is reported as a delta too', () => {
    const deltas: ChatDelta[] = [];
    const parser = new ChatStreamParser((d) => deltas.push(d));
    parser.push(new TextEncoder().encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: '<thi' }, finish_reason: 'stop' }] })}\n\n`));
    parser.end();
    assert.equal(parser.accumulator.result().content, '<thi');
    assert.equal(deltas.map((d) => d.content ?? '').join(''), '<thi');
  });
});
