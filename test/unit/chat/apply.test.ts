// Apply a reply's code block without a model: where it goes (info string, path comment, diff header), a diff's hunks
// applied with fuzz or refused, a block replacing a selection or a whole file, and what survives: CRLF, a BOM, tabs
// against spaces, non-ASCII text, and a file that changed since the reply.
import * as assert from 'node:assert/strict';
import { applyBlock, editsBetween, normalizeHunks, type TextEdit } from '../../../src/chat/core/apply/applyBlock';
import { blockTarget, commentPath, diffPath, fenceInfoFor, infoTarget, isUnifiedDiff, looksLikePath } from '../../../src/chat/core/apply/applyTarget';
import { detectIndentation, reindent } from '../../../src/chat/core/apply/indentation';

function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const edit of [...edits].reverse()) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** Applies and checks that the edits, replayed on the old text, give the new text. */
function apply(current: string, code: string, options: { diff?: boolean; range?: { start: number; end: number } } = {}): string {
  const outcome = applyBlock({ current, code, diff: options.diff ?? false, range: options.range, display: 'a.ts' });
  if (!outcome.ok) throw new Error(outcome.reason);
  assert.equal(applyEdits(current, outcome.edits), outcome.text);
  return outcome.text;
}

const FILE = ['function greet(name) {', '  const greeting = "Hello";', '  return greeting + ", " + name;', '}', '', 'function part() {', '  return 1;', '}', ''].join('\n');
const DIFF = ['--- a/src/a.ts', '+++ b/src/a.ts', '@@ -1,4 +1,4 @@', ' function greet(name) {', '-  const greeting = "Hello";', '+  const greeting = "Bonjour";', '   return greeting + ", " + name;', ' }', ''].join('\n');

describe('Apply: where a block goes', () => {
  it('reads a path from the info string in its usual forms', () => {
    assert.deepEqual(infoTarget('ts src/a.ts'), { language: 'ts', path: 'src/a.ts' });
    assert.deepEqual(infoTarget('ts:src/a.ts'), { language: 'ts', path: 'src/a.ts' });
    assert.deepEqual(infoTarget('ts path=src/a.ts'), { language: 'ts', path: 'src/a.ts' });
    assert.deepEqual(infoTarget('python title="tools/run.py"'), { language: 'python', path: 'tools/run.py' });
    assert.deepEqual(infoTarget('main.go'), { language: '', path: 'main.go' });
    assert.deepEqual(infoTarget('typescript'), { language: 'typescript' });
    assert.deepEqual(infoTarget('c++'), { language: 'c++' });
  });

  it('reads a leading path comment, and leaves ordinary comments alone', () => {
    assert.equal(commentPath('// src/a.ts'), 'src/a.ts');
    assert.equal(commentPath('# filepath: tools/run.py'), 'tools/run.py');
    assert.equal(commentPath('<!-- web/index.html -->'), 'web/index.html');
    assert.equal(commentPath('/* file: lib/x.c */'), 'lib/x.c');
    assert.equal(commentPath('#!/usr/bin/env bash'), undefined);
    assert.equal(commentPath('// this is a comment'), undefined);
    assert.equal(commentPath('// see https://example.com/a.js'), undefined);
    assert.equal(commentPath('const x = 1;'), undefined);
  });

  it('takes the path comment off the block it names', () => {
    assert.deepEqual(blockTarget('// src/a.ts\nexport const a = 1;\n', 'ts'), { path: 'src/a.ts', code: 'export const a = 1;\n', diff: false });
    assert.deepEqual(blockTarget('export const a = 1;\n', 'ts'), { code: 'export const a = 1;\n', diff: false });
  });

  it('knows a unified diff and the file it changes', () => {
    assert.equal(isUnifiedDiff(DIFF, ''), true);
    assert.equal(isUnifiedDiff('@@ -1 +1 @@\n-a\n+b\n', 'diff'), true);
    assert.equal(isUnifiedDiff('@@ not a diff\n', 'ts'), false);
    assert.equal(diffPath(DIFF), 'src/a.ts');
    assert.equal(diffPath('--- a/old.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n'), 'old.ts');
    assert.deepEqual(blockTarget(DIFF, 'diff'), { path: 'src/a.ts', code: DIFF, diff: true });
  });

  it('refuses what is not a path a model means', () => {
    for (const bad of ['', 'a b', 'x'.repeat(401), 'dir/', 'http://x.y/a.js', '"a.ts"', 'a.*', 'noext']) assert.equal(looksLikePath(bad), false, bad);
    for (const good of ['a.ts', 'src/a.ts', '../x/y.rs', 'C:\\x\\y.cs', 'Ünïcödé/файл.py']) assert.equal(looksLikePath(good), true, good);
  });
});

describe('Apply: a unified diff', () => {
  it('applies its hunks', () => {
    assert.equal(apply(FILE, DIFF, { diff: true }), FILE.replace('"Hello"', '"Bonjour"'));
  });

  it('applies hunks whose line numbers are off, or missing, or whose counts do not add up', () => {
    const moved = 'const header = 1;\n\n\n' + FILE;
    assert.equal(apply(moved, DIFF, { diff: true }), moved.replace('"Hello"', '"Bonjour"'));
    const bare = DIFF.replace('@@ -1,4 +1,4 @@', '@@ ... @@');
    assert.equal(apply(FILE, bare, { diff: true }), FILE.replace('"Hello"', '"Bonjour"'));
    const miscounted = DIFF.replace('@@ -1,4 +1,4 @@', '@@ -1,9 +1,2 @@');
    assert.equal(apply(FILE, miscounted, { diff: true }), FILE.replace('"Hello"', '"Bonjour"'));
  });

  it('applies with fuzz when a context line differs', () => {
    // The package wants the lines right next to a change exact; the fourth line is not.
    const fuzzed = DIFF.replace('\n }\n', '\n };\n');
    assert.notEqual(fuzzed, DIFF);
    assert.equal(apply(FILE, fuzzed, { diff: true }), FILE.replace('"Hello"', '"Bonjour"'));
  });

  it('applies a file changed since the reply, as long as the hunk still fits', () => {
    const changed = 'import x from "y";\n' + FILE.replace('return 1;', 'return 2;');
    assert.equal(apply(changed, DIFF, { diff: true }), changed.replace('"Hello"', '"Bonjour"'));
  });

  it('refuses cleanly, naming the hunk, when a removed line is not in the file', () => {
    const changed = FILE.replace('const greeting = "Hello";', 'const greeting = "Hi";');
    const outcome = applyBlock({ current: changed, code: DIFF, diff: true, display: 'src/a.ts' });
    assert.equal(outcome.ok, false);
    assert.match(outcome.ok ? '' : outcome.reason, /does not match src\/a\.ts: hunk 1 \(near line 1\).*Nothing was changed/);
  });

  it('refuses a diff without hunks and one that changes several files', () => {
    assert.equal(applyBlock({ current: FILE, code: '--- a\n+++ b\n', diff: true, display: 'a' }).ok, false);
    const two = DIFF + DIFF.replace(/a\.ts/g, 'b.ts');
    const outcome = applyBlock({ current: FILE, code: two, diff: true, display: 'a' });
    assert.match(outcome.ok ? '' : outcome.reason, /changes 2 files/);
  });

  it('matches context written with spaces in a file indented with tabs, and adds lines with tabs', () => {
    const tabbed = FILE.replace(/^ {2}/gm, '\t');
    assert.equal(apply(tabbed, DIFF, { diff: true }), tabbed.replace('"Hello"', '"Bonjour"'));
  });

  it('keeps CRLF line endings and a BOM', () => {
    const crlf = '\uFEFF' + FILE.replace(/\n/g, '\r\n');
    const result = apply(crlf, DIFF, { diff: true });
    assert.equal(result, crlf.replace('"Hello"', '"Bonjour"'));
    assert.ok(result.startsWith('\uFEFF'));
    assert.equal(result.split('\r\n').length, crlf.split('\r\n').length);
  });

  it('applies non-ASCII text (accents, CJK, emoji, surrogate pairs) at the right offsets', () => {
    const file = 'const a = "héllo 🌍";\nconst b = "世界";\nconst c = 3;\n';
    const diff = '@@ -1,3 +1,3 @@\n const a = "héllo 🌍";\n-const b = "世界";\n+const b = "мир 🚀";\n const c = 3;\n';
    assert.equal(apply(file, diff, { diff: true }), file.replace('世界', 'мир 🚀'));
  });

  it('reads an empty line inside a hunk as empty context, and a removed `-- ` line as a line', () => {
    const sql = 'select 1;\n-- old comment\n\nselect 2;\n';
    const diff = '@@ -1,4 +1,4 @@\n select 1;\n--- old comment\n+-- new comment\n\n select 2;\n';
    assert.equal(apply(sql, diff, { diff: true }), sql.replace('old', 'new'));
    assert.match(normalizeHunks(diff) ?? '', /^@@ -1,4 \+1,4 @@\n/);
  });
});

describe('Apply: a block that replaces', () => {
  it('replaces the selection', () => {
    const start = FILE.indexOf('  return 1;');
    const range = { start, end: start + '  return 1;'.length };
    assert.equal(apply(FILE, '  return 42;', { range }), FILE.replace('return 1;', 'return 42;'));
  });

  it('replaces the whole file, keeping whether it ended with a line break', () => {
    assert.equal(apply('old\n', 'new\n'), 'new\n');
    assert.equal(apply('old', 'new\n'), 'new');
    assert.equal(apply('old\n', 'new'), 'new\n');
    assert.equal(apply('', 'new\n'), 'new\n');
  });

  it('replaces a CRLF file with a BOM, keeping both', () => {
    const crlf = '\uFEFFa\r\nb\r\n';
    assert.equal(apply(crlf, 'a\nc\n'), '\uFEFFa\r\nc\r\n');
    const start = crlf.indexOf('b');
    assert.equal(apply(crlf, 'x\ny', { range: { start, end: start + 1 } }), '\uFEFFa\r\nx\r\ny\r\n');
  });

  it('writes a block indented with spaces in the tabs of the file', () => {
    const tabbed = 'function f() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n';
    const spaced = 'function f() {\n    if (y) {\n        return 2;\n    }\n}\n';
    assert.equal(apply(tabbed, spaced), 'function f() {\n\tif (y) {\n\t\treturn 2;\n\t}\n}\n');
  });

  it('makes one edit per changed run of lines, so each can be reviewed on its own', () => {
    const next = FILE.replace('"Hello"', '"Hi"').replace('return 1;', 'return 2;');
    const outcome = applyBlock({ current: FILE, code: next, diff: false, display: 'a' });
    assert.ok(outcome.ok);
    assert.equal(outcome.ok && outcome.edits.length, 2);
  });
});

describe('Apply: indentation and edits', () => {
  it('detects tabs and the width of spaces', () => {
    assert.deepEqual(detectIndentation('a\n\tb\n\t\tc\n'), { tabs: true, size: 4 });
    assert.deepEqual(detectIndentation('a\n  b\n    c\n'), { tabs: false, size: 2 });
    assert.equal(detectIndentation('a\nb\n'), undefined);
  });

  it('reindents by level, and leaves a block in the file’s own style alone', () => {
    assert.equal(reindent('a\n  b\n    c\n', { tabs: false, size: 4 }), 'a\n    b\n        c\n');
    assert.equal(reindent('a\n\tb\n', { tabs: true, size: 4 }), 'a\n\tb\n');
  });

  it('gives no edits for equal texts, and edits that replay for random changes', () => {
    assert.deepEqual(editsBetween('same\n', 'same\n'), []);
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const words = ['a', 'b', 'ü', '🌍', '', 'x y'];
    for (let round = 0; round < 200; round++) {
      const make = () => Array.from({ length: Math.floor(random() * 8) }, () => words[Math.floor(random() * words.length)]).join('\n');
      const before = make();
      const after = make();
      assert.equal(applyEdits(before, editsBetween(before, after)), after, JSON.stringify([before, after]));
    }
  });
});

describe('Apply: the block in the stored reply', () => {
  it('finds the info string of the block the view sent, in lists and with longer fences too', () => {
    const reply = 'Here:\n\n```ts src/a.ts\nconst a = 1;\n```\n\n1. Then\n   ````py tools/b.py\n   x = "```"\n   ````\n\n~~~\nplain\n~~~\n';
    assert.equal(fenceInfoFor(reply, 'const a = 1;\n'), 'ts src/a.ts');
    assert.equal(fenceInfoFor(reply, 'x = "```"'), 'py tools/b.py');
    assert.equal(fenceInfoFor(reply, 'plain'), '');
    assert.equal(fenceInfoFor(reply, 'not in the reply'), undefined);
    assert.equal(fenceInfoFor('```sh\nopen at the end', 'open at the end'), 'sh');
  });
});
