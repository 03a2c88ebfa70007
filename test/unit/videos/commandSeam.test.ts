// The video and media commands reach the user only through the one user seam (src/ui/vscode/userInterface.ts; the videos'
// CommandUi adds one question): a message, question, picker, dialog, progress, clipboard or browser call made around
// it would be invisible to the host tests.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const SRC = path.join(__dirname, '../../../../src');
/** What a command may use of `vscode` directly: files in the workspace are real effects the host tests check on disk. */
const ALLOWED = new Set(['workspace', 'Uri', 'FileSystemError', 'WebviewPanel']);

describe('command seam (videos, media)', () => {
  const commandFiles = ['videos/core', 'videos/vscode', 'media/core', 'media/vscode'].flatMap((folder) =>
    readdirSync(path.join(SRC, folder))
      .filter((name) => /Commands?\.ts$/.test(name) && name !== 'mediaCommands.ts' && name !== 'videoCommands.ts')
      .map((name) => `${folder}/${name}`),
  );

  it('finds the command files', () => {
    assert.ok(commandFiles.length >= 9, commandFiles.join(', '));
  });

  for (const name of commandFiles) {
    it(`${name} talks to the user only through the user seam`, () => {
      const source = readFileSync(path.join(SRC, name), 'utf8');
      const used = new Set([...source.matchAll(/(?<!['\w.])vscode\.(\w+)/g)].map((m) => m[1]));
      const around = [...used].filter((member) => !ALLOWED.has(member));
      assert.deepEqual(around, [], `${name} uses vscode.${around.join(', vscode.')} directly`);
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      assert.ok(!imports.includes('../ui/notify'), `${name} shows advice around the seam`);
    });
  }
});
