// The chat protocol folder is shared by the extension host (src/chat) and the webview (src/webview): it must run
// in both, so it imports nothing but itself, and the two sides reach each other only through it.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../../..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every module a file imports: relative ones as paths under src/, others by name. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)[^'"]*from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm)].map((m) => {
    const spec = m[1] ?? m[2];
    return spec.startsWith('.') ? relative(SRC, resolve(file, '..', spec)) : spec;
  });
}

describe('chat protocol layering', () => {
  it('src/chatProtocol imports only its own files (no Node, no vscode, no other folder)', () => {
    const found = sourceFiles(join(SRC, 'chatProtocol')).flatMap((file) => importsOf(file).filter((spec) => !spec.startsWith('chatProtocol/')).map((spec) => `${relative(SRC, file)} imports ${spec}`));
    assert.deepEqual(found, []);
  });

  it('chat/ and webview/ do not import each other', () => {
    const crossing = (from: string, to: string) =>
      sourceFiles(join(SRC, from)).flatMap((file) => importsOf(file).filter((spec) => spec.startsWith(`${to}/`)).map((spec) => `${relative(SRC, file)} imports ${spec}`));
    assert.deepEqual([...crossing('chat', 'webview'), ...crossing('webview', 'chat')], []);
  });
});
