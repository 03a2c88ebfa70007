// Model output is hostile input. Each parser of it (spoken text, titles, the markdown renderer and its streaming
// planner, fences, tool-call arguments) is fed about 1 MB built to make a backtracking regex or a rescanning loop take
// minutes, inside a worker that is ended after 20 s: a hang detector, not a timing assertion. The scanners that
// replaced quadratic regexes are checked against those regexes on thousands of random short texts.

import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { cleanTitle } from '../../../src/chat/core/historyModel';
import { spokenText } from '../../../src/chat/core/hub/spokenText';
import { LIMITS } from '../../../src/chatProtocol/session';
import { runInWorker } from '../../util/inWorker';
import { seededRandom } from '../../util/seededRandom';

const DRIVERS = join(__dirname, 'modelOutputDrivers.js');
const MB = 1024 * 1024;
const inWorker = (name: string, ...args: unknown[]): Promise<unknown> => runInWorker(DRIVERS, name, args, 20_000);

const HOSTILE_MARKDOWN: ReadonlyArray<readonly [string, string]> = [
  ['unclosed image links', '!['.repeat(MB / 2)],
  ['unclosed links', '['.repeat(MB)],
  ['links without a target', '[a]('.repeat(MB / 4)],
  ['emphasis that never closes', '*a '.repeat(MB / 3)],
  ['underscores that never close', '_a '.repeat(MB / 3)],
  ['strikethrough that never closes', '~~a '.repeat(MB / 4)],
  ['mixed markers', '*_'.repeat(MB / 2)],
  ['backtick runs', Array.from({ length: 1400 }, (_, i) => `${'`'.repeat(i + 1)}a`).join('')],
  ['nested quotes', '> '.repeat(MB / 2)],
  ['a table a thousand columns wide', `${'|a'.repeat(MB / 8)}\n${'|-'.repeat(MB / 8)}\n${'|b'.repeat(MB / 8)}`],
  ['links for linkify', `http://${'a.'.repeat(MB / 2)}`],
  ['numbered lines', '1111111111'.repeat(MB / 10)],
  ['a fence of XML that never closes', `\`\`\`xml\n${'<a '.repeat(MB / 3)}`],
  ['a fence of YAML', `\`\`\`yaml\n${'- '.repeat(MB / 2)}\n\`\`\``],
];

describe('adversarial model output (each parser in a worker, ended after 20 s)', function () {
  this.timeout(40_000);

  for (const [name, text] of HOSTILE_MARKDOWN) {
    it(`spoken text of ${name} (1 MB)`, async () => {
      assert.ok(((await inWorker('speak', text)) as number) <= 4096);
    });
  }

  it('a title with a megabyte of spaces (or quotes) inside', async () => {
    assert.equal(await inWorker('title', `Title:  "a${' '.repeat(MB)}b."`), 'a b');
    assert.equal(await inWorker('title', `a${'“ '.repeat(MB / 2)}b`).then((t) => String(t).length), LIMITS.title);
  });

  // markdown-it is linear on all of these but does real work (about 2 s a megabyte here): a quarter keeps CI cheap.
  for (const [name, text] of HOSTILE_MARKDOWN.filter(([n]) => !n.startsWith('numbered'))) {
    it(`the markdown renderer and its streaming planner on ${name} (256 KB)`, async () => {
      const result = (await inWorker('renderReply', text.slice(0, MB / 4))) as { htmlChars: number };
      assert.ok(result.htmlChars > 0);
    });
  }

  it('fences and pretty JSON of a megabyte of backticks and brackets, and tool-call arguments nested a megabyte deep', async () => {
    assert.ok(((await inWorker('fence', '`'.repeat(MB))) as number) > MB);
    assert.ok(((await inWorker('fence', '['.repeat(MB))) as number) > MB);
    assert.match(String(await inWorker('toolCallInput', '{"a":'.repeat(MB / 5))), /are not a JSON object/);
  });

  it('a chat exported to Markdown whose reply, reasoning, tool call and title are a megabyte of markup', async () => {
    for (const text of ['`'.repeat(MB), '[*_<>\\'.repeat(MB / 6), ` ${'\n'.repeat(MB)}`]) assert.ok(((await inWorker('exportChat', text)) as number) > MB);
  });
});

// The regexes the scanners replaced, to check the scanners against on short texts (where they are fast).
function spokenTextByRegex(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?(```|$)/g, ' (code) ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/(\*\*|__|\*|_|~~)(\S(?:[\s\S]*?\S)?)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
}

function titleByRegex(text: string): string | undefined {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const cleaned = line
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/^\s*(?:title\s*:\s*)?/i, '')
    .replace(/^[\s"'`*_#“”‘’]+|[\s"'`*_“”‘’.]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return cleaned === '' ? undefined : cleaned;
}

function randomText(random: () => number, alphabet: string, maxLength: number): string {
  let text = '';
  const length = Math.floor(random() * maxLength);
  for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
  return text;
}

describe('model output scanners say what the regexes said', () => {
  it('spoken text, on 20,000 random short replies of markdown punctuation', () => {
    const random = seededRandom(21);
    for (let i = 0; i < 20_000; i++) {
      const text = randomText(random, '*_~`[]()!#>-+1. \n\u00a0ab', 24);
      assert.equal(spokenText(text), spokenTextByRegex(text), JSON.stringify(text));
    }
  });

  it('titles, on 20,000 random short proposals of quotes, emphasis and spaces', () => {
    const random = seededRandom(22);
    for (let i = 0; i < 20_000; i++) {
      const text = randomText(random, ' \t\u00a0"\'`*_#“”‘’.:aT\n', 16);
      assert.equal(cleanTitle(text), titleByRegex(text), JSON.stringify(text));
    }
  });
});
