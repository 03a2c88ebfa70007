import * as assert from 'node:assert/strict';
import { attachmentTokens, chipOf, estimateTextTokens, TOKENS_PER_IMAGE, type ImageAttachment, type TextAttachment } from '../../../../src/chatProtocol/attachments';
import { checkTextFile, lineCount, looksBinary } from '../../../../src/chat/core/context/fileCheck';
import { IgnoreRules } from '../../../../src/chat/core/context/gitignore';
import { checkImage, sniffImageType } from '../../../../src/chat/core/context/images';
import { editorLineCount, parseLineRange, sliceLines } from '../../../../src/chat/core/context/lineRange';
import { isSecretPath } from '../../../../src/util/credentials';
import { applyTrim, budgetOf, planTrim } from '../../../../src/chat/core/context/trim';
import { hashQuery } from '../../../../src/webview/chat/attachments';
import { attachmentsMarkdown, fencedAttachment, textWithContext, userContent } from '../../../../src/chat/core/contextPrompt';

function textFile(lines: number, fields: Partial<TextAttachment> = {}): TextAttachment {
  const text = Array.from({ length: lines }, (_, i) => `line ${String(i + 1).padStart(4, '0')} of the file`).join('\n');
  return { kind: 'text', id: fields.id ?? 'a1', source: 'file', path: 'src/a.ts', language: 'typescript', startLine: 1, endLine: lines, totalLines: lines, text, ...fields };
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const image: ImageAttachment = { kind: 'image', id: 'i1', name: 'shot.png', mimeType: 'image/png', data: Buffer.from(PNG).toString('base64') };

describe('chat context (pure core)', () => {
  describe('token estimate', () => {
    it('counts about four characters per token, rounded up, plus framing; an image costs a flat amount', () => {
      assert.equal(estimateTextTokens(''), 0);
      assert.equal(estimateTextTokens('abcd'), 1);
      assert.equal(estimateTextTokens('abcde'), 2);
      const file = textFile(10);
      assert.equal(attachmentTokens(file), estimateTextTokens(file.text) + 12);
      assert.equal(attachmentTokens(image), TOKENS_PER_IMAGE);
    });

    it('a chip shows the tokens, the path, the range and a trim', () => {
      const chip = chipOf({ ...textFile(100), endLine: 40 });
      assert.equal(chip.label, 'a.ts');
      assert.equal(chip.tokens, attachmentTokens({ ...textFile(100), endLine: 40 }));
      assert.match(chip.detail, /src\/a\.ts, lines 1–40 \(trimmed from 100 lines\), typescript/);
      assert.match(chipOf(image).detail, /PNG image, 12 B/);
    });
  });

  describe('lines of a file', () => {
    it('reads a line, a range (any dash, a colon or ..) and an open range to the end', () => {
      assert.deepEqual(parseLineRange('12-40', 100), { start: 12, end: 40 });
      assert.deepEqual(parseLineRange(' 12 – 40 ', 100), { start: 12, end: 40 });
      assert.deepEqual(parseLineRange('12:40', 100), { start: 12, end: 40 });
      assert.deepEqual(parseLineRange('12..40', 100), { start: 12, end: 40 });
      assert.deepEqual(parseLineRange('7', 100), { start: 7, end: 7 });
      assert.deepEqual(parseLineRange('90-', 100), { start: 90, end: 100 });
    });

    it('says why a range cannot be attached', () => {
      assert.match((parseLineRange('', 10) as { error: string }).error, /from 1 to 10: 12-40, 12, or 12- for the rest/);
      assert.match((parseLineRange('a-b', 10) as { error: string }).error, /from 1 to 10/);
      assert.match((parseLineRange('0-3', 10) as { error: string }).error, /counted from 1/);
      assert.match((parseLineRange('8-3', 10) as { error: string }).error, /ends \(line 3\) before it starts \(line 8\)/);
      assert.match((parseLineRange('5-11', 10) as { error: string }).error, /has 10 lines/);
      assert.match((parseLineRange('2', 1) as { error: string }).error, /has 1 line\.$/);
    });

    it('takes exactly those lines, whatever the line breaks, and counts lines as an editor does', () => {
      const text = 'one\r\ntwo\nthree\nfour\n';
      assert.equal(sliceLines(text, { start: 2, end: 3 }), 'two\nthree');
      assert.equal(sliceLines(text, { start: 4, end: 4 }), 'four');
      assert.equal(editorLineCount(text), 5);
      assert.equal(editorLineCount(''), 1);
    });

    it('shows lines of a file as file:N-M, sent under the file heading with the range', () => {
      const lines: TextAttachment = { ...textFile(3), source: 'lines', startLine: 20, endLine: 22 };
      assert.equal(chipOf(lines).label, 'a.ts:20-22');
      assert.match(chipOf(lines).detail, /^src\/a\.ts, lines 20–22, typescript$/);
      assert.match(fencedAttachment(lines), /^File `src\/a\.ts` \(lines 20–22, typescript\):\n\n```typescript\nline 0001/);
    });
  });

  describe('# completion', () => {
    it('finds the #word being typed before the caret, only at a word start', () => {
      assert.deepEqual(hashQuery('#', 1), { start: 0, query: '' });
      assert.deepEqual(hashQuery('look at #Fi', 11), { start: 8, query: 'fi' });
      assert.equal(hashQuery('issue#12', 8), undefined);
      assert.equal(hashQuery('#file then more', 15), undefined);
      assert.deepEqual(hashQuery('a\n#sel', 6), { start: 2, query: 'sel' });
    });
  });

  describe('secrets pattern', () => {
    for (const path of ['.env', 'app/.env.local', '.env.production', 'id_rsa', 'home/.ssh/config', 'certs/server.pem', 'keys/signing.key', '.npmrc', 'credentials.json', 'secrets.yaml', 'cert.p12', '.netrc', 'service-account-prod.json']) {
      it(`asks before attaching ${path}`, () => assert.equal(isSecretPath(path), true));
    }
    for (const path of ['src/env.ts', '.env.example', 'README.md', 'keyboard.ts', 'docs/secrets.md', 'src/pem.ts', 'id_rsa_test.go']) {
      it(`attaches ${path} without asking`, () => assert.equal(isSecretPath(path), false));
    }
  });

  describe('files', () => {
    it('refuses binary content and files over the limit, with the reason', () => {
      assert.equal(looksBinary(new TextEncoder().encode('plain text\n\ttabbed\r\n')), false);
      assert.equal(looksBinary(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x01])), true);
      const binary = checkTextFile('lib.so', Uint8Array.from([1, 2, 0, 3]), 1000);
      assert.ok(!binary.ok && /binary/.test(binary.reason));
      const big = checkTextFile('big.log', new Uint8Array(2048).fill(65), 1024);
      assert.ok(!big.ok && /2 KB, over the 1 KB limit/.test(big.reason) && /maxAttachmentKB/.test(big.reason));
      const fine = checkTextFile('a.txt', new TextEncoder().encode('héllo'), 1024);
      assert.ok(fine.ok && fine.text === 'héllo');
      assert.equal(lineCount('a\nb\n'), 2);
      assert.equal(lineCount('a\nb'), 2);
    });

    it('reads the image type from the bytes, and refuses what is not an image or too large', () => {
      assert.equal(sniffImageType(PNG), 'image/png');
      assert.equal(sniffImageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0])), 'image/jpeg');
      assert.equal(sniffImageType(new TextEncoder().encode('GIF89a....')), 'image/gif');
      assert.equal(sniffImageType(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 ')), 'image/webp');
      assert.equal(sniffImageType(new TextEncoder().encode('<svg xmlns=')), undefined);
      const svg = checkImage('logo.svg', new TextEncoder().encode('<svg/>'));
      assert.ok(!svg.ok && /not a PNG, JPEG, WebP or GIF/.test(svg.reason));
      const big = checkImage('huge.png', PNG, 4);
      assert.ok(!big.ok && /images up to 4 bytes/.test(big.reason));
    });
  });

  describe('.gitignore rules', () => {
    it('applies names, globs, anchors, folders, negation and nested files', () => {
      const rules = new IgnoreRules();
      rules.add('', '# build output\nnode_modules/\n/dist\n*.log\n!keep.log\nout/**/*.map\n');
      rules.add('packages/web', 'generated/\n');
      assert.equal(rules.ignores('node_modules/x/index.js'), true);
      assert.equal(rules.ignores('packages/a/node_modules/y.js'), true);
      assert.equal(rules.ignores('dist/extension.js'), true);
      assert.equal(rules.ignores('src/dist/x.ts'), false, 'an anchored pattern only matches at its folder');
      assert.equal(rules.ignores('logs/debug.log'), true);
      assert.equal(rules.ignores('keep.log'), false);
      assert.equal(rules.ignores('out/a/b/c.map'), true);
      assert.equal(rules.ignores('packages/web/generated/api.ts'), true);
      assert.equal(rules.ignores('generated/api.ts'), false, 'a nested .gitignore only applies below its folder');
      assert.equal(rules.ignores('src/extension.ts'), false);
    });
  });

  describe('fencing', () => {
    it('sends text attachments as fenced blocks with path, range and language, before the question', () => {
      const selection: TextAttachment = { kind: 'text', id: 's1', source: 'selection', path: 'src/x.py', language: 'python', startLine: 10, endLine: 12, totalLines: 3, text: 'a = 1\nb = ```\nc = 3' };
      const block = fencedAttachment(selection);
      assert.equal(block, 'Selection from `src/x.py` (lines 10–12, python):\n\n````python\na = 1\nb = ```\nc = 3\n````');
      assert.equal(textWithContext('Why?', [selection]), `${block}\n\nWhy?`);
      assert.equal(textWithContext('Why?', []), 'Why?');
      const trimmed = fencedAttachment({ ...textFile(50), endLine: 20 });
      assert.match(trimmed, /^File `src\/a\.ts` \(lines 1–20, trimmed from 50 lines, typescript\):/);
    });

    it('puts images after the text as image_url parts with a data URL', () => {
      assert.equal(userContent({ content: 'Hi' }), 'Hi');
      const content = userContent({ content: 'What is this?', attachments: [image, textFile(1)] });
      assert.ok(Array.isArray(content));
      assert.equal(content.length, 2);
      assert.deepEqual(content[0], { type: 'text', text: textWithContext('What is this?', [textFile(1)]) });
      assert.deepEqual(content[1], { type: 'image_url', image_url: { url: `data:image/png;base64,${image.data}` } });
    });

    it('exports attachments with the turn', () => {
      const md = attachmentsMarkdown([textFile(2), image]);
      assert.match(md, /<details><summary>Attached context \(2\)<\/summary>/);
      assert.match(md, /```typescript\nline 0001/);
      assert.match(md, /!\[shot\.png\]\(data:image\/png;base64,/);
      assert.equal(attachmentsMarkdown([]), '');
    });
  });

  describe('overflow and trim planning', () => {
    it('adds conversation, attachments and draft against the window', () => {
      const file = textFile(100);
      const budget = budgetOf(500, [file, image], 2000, 10);
      assert.equal(budget.total, 500 + 10 + attachmentTokens(file) + TOKENS_PER_IMAGE);
      assert.equal(budget.overBy, Math.max(0, budget.total - 2000));
      assert.equal(budgetOf(0, [], 100).overBy, 0);
    });

    it('trims the largest attachment by whole lines until it fits, and says nothing when it already fits', () => {
      const small = textFile(5, { id: 'small' });
      const large = textFile(400, { id: 'large', path: 'src/big.ts' });
      assert.deepEqual(planTrim([small, large], 0), { kind: 'none' });
      const overBy = 1000;
      const plan = planTrim([small, large], overBy);
      assert.equal(plan.kind, 'trim');
      assert.ok(plan.kind === 'trim' && plan.id === 'large' && plan.savedTokens >= overBy, JSON.stringify(plan));
      const after = applyTrim([small, large], plan);
      const trimmed = after.find((a) => a.id === 'large') as TextAttachment;
      assert.equal(trimmed.endLine, plan.kind === 'trim' ? plan.keepLines : -1);
      assert.equal(trimmed.totalLines, 400, 'the original size is kept, so the chip and the fence say it was trimmed');
      assert.ok(trimmed.text.startsWith(large.text.slice(0, 100)) && large.text.startsWith(trimmed.text.trimEnd()));
      assert.ok(attachmentTokens(large) - attachmentTokens(trimmed) >= overBy);
      // Saving only a little keeps most of the file.
      const light = planTrim([large], 10);
      assert.ok(light.kind === 'trim' && light.keepLines > 390, JSON.stringify(light));
      assert.deepEqual(after.find((a) => a.id === 'small'), small);
    });

    it('removes the largest attachment when even one line would not fit, or when it is an image', () => {
      const large = textFile(10, { id: 'large' });
      assert.deepEqual(planTrim([large], attachmentTokens(large) + 5), { kind: 'remove', id: 'large', savedTokens: attachmentTokens(large) });
      assert.deepEqual(planTrim([image], 1), { kind: 'remove', id: 'i1', savedTokens: TOKENS_PER_IMAGE });
    });
  });
});
