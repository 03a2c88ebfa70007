// The video commands reach the user only through CommandUi (src/videos/commandUiView.ts): a message, question,
// picker, dialog, progress, clipboard or browser call made around it would be invisible to the host tests.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const VIDEOS = path.join(__dirname, '../../../../src/videos');
/** What a command may use of `vscode` directly: files in the workspace are real effects the host tests check on disk. */
const ALLOWED = new Set(['workspace', 'Uri', 'FileSystemError', 'WebviewPanel']);

describe('video command seam', () => {
  const commandFiles = readdirSync(VIDEOS).filter((name) => /Commands?\.ts$/.test(name));

  it('finds the command files', () => {
    assert.ok(commandFiles.length >= 6, commandFiles.join(', '));
  });

  for (const name of commandFiles) {
    it(`${name} talks to the user only through CommandUi`, () => {
      const source = readFileSync(path.join(VIDEOS, name), 'utf8');
      const used = new Set([...source.matchAll(/\bvscode\.(\w+)/g)].map((m) => m[1]));
      const around = [...used].filter((member) => !ALLOWED.has(member));
      assert.deepEqual(around, [], `${name} uses vscode.${around.join(', vscode.')} directly`);
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      assert.ok(!imports.includes('../ui/notify'), `${name} shows advice around CommandUi`);
    });
  }
});
