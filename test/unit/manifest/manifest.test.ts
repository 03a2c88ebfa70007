import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '../../../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

describe('extension manifest', () => {
  it('uses the agreed identifiers', () => {
    assert.equal(manifest.name, 'model-gateway');
    assert.equal(manifest.displayName, 'Model Gateway');
    for (const c of manifest.contributes.commands) assert.match(c.command, /^modelGateway\./);
    for (const key of Object.keys(manifest.contributes.configuration.properties)) assert.match(key, /^modelGateway\./);
    assert.ok(Object.values(manifest.contributes.views).flat().some((v) => (v as { id: string }).id === 'modelGateway.videoJobs'));
  });

  it('menus only name declared commands', () => {
    const declared = new Set(manifest.contributes.commands.map((c: { command: string }) => c.command));
    for (const [menu, items] of Object.entries(manifest.contributes.menus) as Array<[string, Array<{ command: string }>]>) {
      for (const item of items) assert.ok(declared.has(item.command), `${menu} names undeclared ${item.command}`);
    }
  });

  it('keeps where the key goes out of reach of workspace settings', () => {
    const props = manifest.contributes.configuration.properties;
    const restricted: string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;
    for (const key of ['modelGateway.baseUrl', 'modelGateway.requestHeaders', 'modelGateway.timeoutSeconds', 'modelGateway.idleTimeoutSeconds']) {
      assert.equal(props[key].scope, 'application', `${key} has application scope`);
      assert.ok(restricted.includes(key), `${key} is restricted in untrusted workspaces`);
    }
  });

  it('packages only the built bundle and assets: no source, tests or source maps (.vscodeignore allowlist)', function () {
    this.timeout(60_000);
    const listed = execFileSync(process.execPath, [join(root, 'node_modules/@vscode/vsce/vsce'), 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    for (const bundle of ['extension', 'client', 'undiciParts', 'connectionTest', 'chatCommands', 'videoCommands', 'mediaCommands', 'keyCommands', 'modelCommands', 'shared']) assert.ok(listed.includes(`dist/${bundle}.js`), listed.join(', '));
    assert.ok(listed.includes('package.json'));
    const unwanted = listed.filter((f) => /\.(ts|map|mp4|sse)$/.test(f) || /^(src|test|bench|scripts|out|node_modules|\.ci|\.vscode-test)\//.test(f));
    assert.deepEqual(unwanted, []);
  });
});
