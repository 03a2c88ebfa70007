// The workspace's instruction files as the chat uses them: front matter, `applyTo` globs against the files in play,
// the system message sent (and where it goes in the request), the chip's message, and prompt files as commands.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { compileGlob, GLOB_LIMITS, globMatches } from '../../../src/chat/core/glob';
import { applicable, appliesTo, applyToGlobs, frontMatter, instructionsMessage, instructionsTokens, promptCommandName, type ReadInstruction } from '../../../src/chat/core/instructions';
import { buildChatRequest } from '../../../src/chat/core/request';
import { cleanInstructionsState, expandPrompt, promptCompletions, type PromptCommand } from '../../../src/chatProtocol/instructions';
import { parseHostMessage, parseWebviewMessage } from '../../../src/chatProtocol/messages';
import { defaultSettings } from '../../../src/chatProtocol/session';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { listFolder } from '../../../src/util/fileRead';
import { runInWorker } from '../../util/inWorker';

const PY = '---\napplyTo: "**/*.py"\ndescription: Python rules\n---\nUse type hints.\n';

describe('Instruction files', () => {
  it('reads flat front matter and leaves the body', () => {
    assert.deepEqual(frontMatter(PY), { fields: { applyTo: '**/*.py', description: 'Python rules' }, body: 'Use type hints.\n' });
    assert.deepEqual(frontMatter('\uFEFF---\napplyTo: \'*.ts, *.tsx\'\n---\n\nBody'), { fields: { applyTo: '*.ts, *.tsx' }, body: 'Body' });
    assert.deepEqual(frontMatter('No front matter\n---\n'), { fields: {}, body: 'No front matter\n---\n' });
    assert.deepEqual(frontMatter('---\nnever closed'), { fields: {}, body: '---\nnever closed' });
  });

  it('matches applyTo globs against the attached and active files, at any depth for a bare name', () => {
    assert.deepEqual(applyToGlobs('**/*.ts, src/**/*.tsx ,'), ['**/*.ts', 'src/**/*.tsx']);
    assert.equal(appliesTo(['**/*.py'], ['tools/run.py']), true);
    assert.equal(appliesTo(['**/*.py'], ['run.py']), true);
    assert.equal(appliesTo(['*.py'], ['deep/in/tools/run.py']), true);
    assert.equal(appliesTo(['src/**/*.ts'], ['test/a.ts']), false);
    assert.equal(appliesTo(['**'], ['.github/workflows/ci.yml']), true, 'dot files too');
    assert.equal(appliesTo([], ['a.ts']), false, 'no applyTo: not applied by itself');
    assert.equal(appliesTo(['**/*.py'], []), false);
  });

  it('matches globs as picomatch does, for the forms applyTo uses', () => {
    const globs = ['**/*.py', '*.py', 'src/**/*.ts', 'src/*.ts', '**', 'src/**', '**/test/**', 'a?c.md', '[ab]*.js', '[^a]*.js', '*.{ts,tsx}', 'docs/{a,b}/**/*.md', '**/.github/**', 'x\\*y', '.*rc', 'src/**/index.ts', '**/*'];
    const paths = ['run.py', 'tools/run.py', 'src/a.ts', 'src/deep/a.ts', 'test/a.ts', 'abc.md', 'a/abc.md', 'abd.md', 'b.js', 'a.js', 'c.tsx', 'docs/a/x.md', 'docs/b/y/z.md', 'docs/c/x.md', '.github/workflows/ci.yml', 'x*y', 'xzy', '.eslintrc', 'src/index.ts', 'src/a/b/index.ts', 'src', 'a/test/b.ts', 'test/b.ts', 'srcx/a.ts'];
    for (const glob of globs) {
      const compiled = compileGlob(glob);
      assert.ok(!('problem' in compiled), glob);
      const expected = picomatch(glob, { dot: true });
      const byName = picomatch(glob, { dot: true, basename: true });
      for (const path of paths) assert.equal(globMatches(compiled, path, { steps: 1e6 }), expected(path) || byName(path), `${glob} against ${path}`);
    }
    // `[!a]` negates, as VS Code's globs mean it (picomatch reads it otherwise).
    const negated = compileGlob('[!a]*.js');
    assert.ok(!('problem' in negated));
    assert.deepEqual(['b.js', 'a.js', 'x/b.js'].map((path) => globMatches(negated, path, { steps: 1e6 })), [true, false, true]);
  });

  it('refuses a glob past its bounds, and says so on the chip', () => {
    assert.ok('problem' in compileGlob('a'.repeat(GLOB_LIMITS.chars + 1)));
    assert.ok('problem' in compileGlob('*a'.repeat(GLOB_LIMITS.stars + 1)));
    assert.ok('problem' in compileGlob('{a,b}'.repeat(GLOB_LIMITS.braces + 1)));
    assert.ok('problem' in compileGlob('{a,b,c,d,e,f,g,h}{a,b,c,d,e,f,g,h}{a,b}'), 'more alternatives than allowed');
    const { files, problems } = applicable([{ label: 'x.instructions.md', location: '/w/x', scoped: true, text: `---\napplyTo: "${'*a'.repeat(100)}"\n---\nRules.\n` }], ['a.ts']);
    assert.deepEqual(files, []);
    assert.match(problems[0] ?? '', /^x\.instructions\.md: applyTo glob with more than \d+ stars; not used$/);
  });

  it('stops matching when the budget is spent: the file is not applied, and the chip says why', () => {
    const read: ReadInstruction[] = Array.from({ length: 40 }, (_, i) => ({ label: `f${i}`, location: `/w/${i}`, scoped: true, text: `---\napplyTo: "${'*a'.repeat(30)}*b, ${'?'.repeat(400)}"\n---\nRules.\n` }));
    const { files, problems } = applicable(read, Array.from({ length: 50 }, (_, i) => `${'a'.repeat(4000)}${i}`));
    assert.deepEqual(files, []);
    assert.ok(problems.some((p) => p.includes('took too long')), problems.join('\n'));
  });

  it('matches the hostile glob *a*a*a…b against a 4,000-character path in steps bounded by glob × path (in a worker, ended after 10 s)', async function () {
    // Steps, not milliseconds: a matcher that backtracks takes exponentially many; one that cannot takes at most one
    // per character of the glob per character of the path.
    this.timeout(20_000);
    const hostile = `${'*a'.repeat(30)}*b`;
    const path = `src/${'a'.repeat(4000)}`;
    const result = (await runInWorker(join(__dirname, 'globDrivers.js'), 'matchInstruction', [hostile, path], 10_000)) as { applied: boolean; problems: string[]; steps: number };
    assert.equal(result.applied, false);
    assert.deepEqual(result.problems, []);
    assert.ok(result.steps > 0 && result.steps <= (hostile.length + 1) * (path.length + 1), `${result.steps} steps`);
  });

  it('lists a folder by suffix before the cap, so other files never push a prompt file out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mg-prompts-'));
    try {
      mkdirSync(join(dir, 'p'));
      for (let i = 0; i < 2000; i++) writeFileSync(join(dir, 'p', `note-${i}.md`), '');
      const wanted = ['a', 'k', 'q', 'x', 'z'].map((n) => `${n}.prompt.md`);
      for (const name of wanted) writeFileSync(join(dir, 'p', name), 'x');
      assert.deepEqual(await listFolder(join(dir, 'p'), '.prompt.md', 200), wanted);
      assert.deepEqual(await listFolder(join(dir, 'p'), '.prompt.md', 2), wanted.slice(0, 2), 'the cap still holds, in name order');
      assert.deepEqual(await listFolder(join(dir, 'missing'), '.prompt.md', 200), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sends always-read files, and scoped ones only when they apply; problems are shown, never sent', () => {
    const read: ReadInstruction[] = [
      { label: 'AGENTS.md', location: '/w/AGENTS.md', scoped: false, text: '# Agents\nRun npm test.\n' },
      { label: '.github/instructions/py.instructions.md', location: '/w/py', scoped: true, text: PY },
      { label: '.github/instructions/ts.instructions.md', location: '/w/ts', scoped: true, text: '---\napplyTo: "**/*.ts"\n---\nNo any.\n' },
      { label: '.github/copilot-instructions.md', location: '/w/c', scoped: false, problem: 'links to /etc/passwd, outside the workspace; not read' },
      { label: 'empty', location: '/w/e', scoped: false, text: '---\n---\n  \n' },
    ];
    const { files, problems } = applicable(read, ['src/a.ts']);
    assert.deepEqual(files.map((f) => f.label), ['AGENTS.md', '.github/instructions/ts.instructions.md']);
    assert.deepEqual(problems, ['.github/copilot-instructions.md: links to /etc/passwd, outside the workspace; not read']);
    assert.equal(files[1].text, 'No any.');
    assert.ok(files[0].tokens > 0);
    const message = instructionsMessage(files) ?? '';
    assert.match(message, /## AGENTS\.md\n\n# Agents\nRun npm test\.\n\n## \.github\/instructions\/ts\.instructions\.md\n\nNo any\./);
    assert.ok(instructionsTokens(files) > files[0].tokens + files[1].tokens);
    assert.equal(instructionsMessage([]), undefined);
    assert.equal(instructionsTokens([]), 0);
  });

  it('go to the model as a system message after the chat’s own system prompt', () => {
    const settings = { ...defaultSettings(), systemPrompt: 'Be brief.' };
    const request = buildChatRequest([{ id: 'u', role: 'user', createdAt: 0, content: 'Hi' }], settings, 'm', { instructions: 'Follow AGENTS.md' });
    assert.deepEqual(request.messages.slice(0, 3), [
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: 'Follow AGENTS.md' },
      { role: 'user', content: 'Hi' },
    ]);
    assert.equal(buildChatRequest([], settings, 'm').messages.length, 1, 'none when off');
  });

  it('cross to the chat view as chips, and the view answers by position only', () => {
    const state = { enabled: false, restricted: true, files: [{ label: 'AGENTS.md', tokens: 420 }], problems: [], prompts: [{ name: 'review', description: 'Review', text: 'Review this.' }] };
    assert.equal(parseHostMessage({ type: 'instructions', instructions: state }).ok, true);
    assert.deepEqual(cleanInstructionsState({ ...state, prompts: [{ name: '../x', description: '', text: 'a' }], extra: 1 }), { ...state, prompts: [] });
    assert.equal(parseWebviewMessage({ type: 'instructionsAction', action: 'open', index: 0 }).ok, true);
    assert.equal(parseWebviewMessage({ type: 'instructionsAction', action: 'delete', index: 0 }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'instructionsAction', action: 'open', index: -1 }).ok, false);
  });
});

describe('Prompt files as slash commands', () => {
  const prompts: PromptCommand[] = [
    { name: 'review-code', description: 'Review', text: 'Review the code for bugs.' },
    { name: 'image', description: 'shadowed', text: 'never' },
  ];

  it('names a command after the file, when the name is a command word', () => {
    assert.equal(promptCommandName('review-code.prompt.md'), 'review-code');
    assert.equal(promptCommandName('a b.prompt.md'), undefined);
    assert.equal(promptCommandName('1st.prompt.md'), undefined);
    assert.equal(promptCommandName('notes.md'), undefined);
  });

  it('expands to the prompt and what follows; built-in commands and plain text are left alone', () => {
    const builtIn = ['image', 'video', 'speak'];
    assert.equal(expandPrompt('/review-code', prompts, builtIn), 'Review the code for bugs.');
    assert.equal(expandPrompt('  /Review-Code focus on errors\nplease', prompts, builtIn), 'Review the code for bugs.\n\nfocus on errors\nplease');
    assert.equal(expandPrompt('/image a cat', prompts, builtIn), undefined);
    assert.equal(expandPrompt('/unknown x', prompts, builtIn), undefined);
    assert.equal(expandPrompt('review-code', prompts, builtIn), undefined);
  });

  it('completes a /word being typed', () => {
    assert.deepEqual(promptCompletions('/rev', prompts).map((p) => p.name), ['review-code']);
    assert.deepEqual(promptCompletions('/', prompts).length, 2);
    assert.deepEqual(promptCompletions('/review-code now', prompts), []);
    assert.deepEqual(promptCompletions('review', prompts), []);
  });
});
