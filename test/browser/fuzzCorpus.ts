import { seededRandom } from './harness';

/** Lines that interact across block boundaries: setext underlines, lazy continuations, fences, tables, definitions. */
const LINES = [
  'Plain paragraph text with *emphasis',
  'that closes* on the next line and **strong**.',
  '# Heading',
  '===',
  '---',
  '- item',
  '  - nested item',
  '    deeper continuation',
  '1. first',
  '2) second',
  '+ plus item',
  '> quoted line',
  '> > nested quote',
  '>',
  '```ts',
  '```',
  '~~~~python',
  '~~~~',
  '    indented code',
  '| a | b |',
  '| --- | :-: |',
  '| 1 | 2 |',
  '[x]: https://example.com/x',
  "  'a title'",
  '[y]: https://example.com/y "Y"',
  'See [x], [y][] and [X][y].',
  'A link [text](https://example.com/t) and ![img](https://example.com/i.png)',
  'Bad links [a](javascript:alert(1)) <javascript:alert(2)>',
  'Bare https://example.org/bare link',
  '`code with | pipe`',
  '😀 astral 𝔘 and 👩‍👩‍👧 family',
  '<b>html is text</b>',
  '*** ',
  '\t- tab bullet',
  'trailing hard break  ',
  '#',
  '',
  '',
  '',
];

export function fuzzDocuments(count: number, seed: number): Array<{ name: string; text: string }> {
  const random = seededRandom(seed);
  const documents = [];
  for (let d = 0; d < count; d++) {
    const lineCount = 8 + Math.floor(random() * 40);
    const lines = [];
    for (let i = 0; i < lineCount; i++) lines.push(LINES[Math.floor(random() * LINES.length)]);
    const text = lines.join('\n') + (random() < 0.5 ? '\n' : '');
    documents.push({ name: `fuzz-${seed}-${d}`, text });
  }
  return documents;
}
