// The workspace's instruction files as the chat uses them: front matter, `applyTo` globs against the files in play,
// the system message sent (and where it goes in the request), the chip's message, and prompt files as commands.
import * as assert from 'node:assert/strict';
import { applicable, appliesTo, applyToGlobs, frontMatter, instructionsMessage, instructionsTokens, promptCommandName, type ReadInstruction } from '../../../src/chat/core/instructions';
import { buildChatRequest } from '../../../src/chat/core/request';
import { cleanInstructionsState, expandPrompt, promptCompletions, type PromptCommand } from '../../../src/chatProtocol/instructions';
import { parseHostMessage, parseWebviewMessage } from '../../../src/chatProtocol/messages';
import { defaultSettings } from '../../../src/chatProtocol/session';

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
    assert.equal(expandPrompt('/image a cat', prompts, builtIn), '/image a cat');
    assert.equal(expandPrompt('/unknown x', prompts, builtIn), '/unknown x');
    assert.equal(expandPrompt('review-code', prompts, builtIn), 'review-code');
  });

  it('completes a /word being typed', () => {
    assert.deepEqual(promptCompletions('/rev', prompts).map((p) => p.name), ['review-code']);
    assert.deepEqual(promptCompletions('/', prompts).length, 2);
    assert.deepEqual(promptCompletions('/review-code now', prompts), []);
    assert.deepEqual(promptCompletions('review', prompts), []);
  });
});
