// The README's command, setting and keyboard-shortcut tables are generated from package.json
// (scripts/readme-tables.mjs); this fails when they drift, naming the command that regenerates them.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(__dirname, '../../../..');

interface ReadmeTables {
  updateReadme(readme: string, manifest: unknown): string;
  describeWhen(when: string): string;
}

interface Manifest {
  contributes: { commands: Array<{ command: string; title: string }>; configuration: { properties: Record<string, unknown> }; keybindings: Array<{ command: string }> };
}

const loadTables = (): Promise<ReadmeTables> => import(pathToFileURL(join(root, 'scripts', 'readme-tables.mjs')).href) as Promise<ReadmeTables>;
const readManifest = (): Manifest => JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;

describe('README tables', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it('match package.json (regenerate with `npm run readme:tables`)', async () => {
    const { updateReadme } = await loadTables();
    assert.equal(updateReadme(readme, readManifest()), readme, 'README.md tables are out of date: run `npm run readme:tables`');
  });

  it('list every command, setting and keyboard shortcut', () => {
    const manifest = readManifest();
    for (const { command } of manifest.contributes.commands) assert.ok(readme.includes(`| \`${command}\` |`), `${command} is in the commands table`);
    for (const key of Object.keys(manifest.contributes.configuration.properties)) assert.ok(readme.includes(`| \`${key}\` |`), `${key} is in the settings table`);
    const shortcuts = readme.slice(readme.indexOf('<!-- generated:keybindings'), readme.indexOf('<!-- /generated:keybindings -->'));
    assert.equal(shortcuts.split('\n').filter((l) => /^\| (Ctrl|Alt|Shift|Cmd)/.test(l)).length, manifest.contributes.keybindings.length);
  });

  it('notice a command added to package.json', async () => {
    const { updateReadme } = await loadTables();
    const manifest = readManifest();
    manifest.contributes.commands.push({ command: 'modelGateway.example', title: 'Example' });
    assert.notEqual(updateReadme(readme, manifest), readme);
  });

  it('say when clauses in words where every term is known', async () => {
    const { describeWhen } = await loadTables();
    assert.equal(describeWhen('modelGateway.hasApiKey'), 'a key is set');
    assert.equal(describeWhen('editorTextFocus && editorHasSelection'), 'an editor has focus and text is selected');
    assert.equal(describeWhen('view == x'), '`view == x`');
  });
});
