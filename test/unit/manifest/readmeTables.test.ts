// The generated tables (scripts/readme-tables.mjs): the README's commands, settings and keyboard shortcuts from
// package.json, and docs/benchmarks.md's latest figures from bench/results/*.json; this fails when they drift,
// naming the command that regenerates them.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(__dirname, '../../../..');

interface BenchResults {
  bench: string;
  commit: string;
  date: string;
  figures: Array<{ measure: string; value: string; target?: string; met?: boolean }>;
}

interface ReadmeTables {
  updateReadme(readme: string, manifest: unknown): string;
  describeWhen(when: string): string;
  updateBenchmarks(doc: string, results: BenchResults[]): string;
  readBenchResults(root?: string): BenchResults[];
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

describe('docs/benchmarks.md figures', () => {
  const doc = readFileSync(join(root, 'docs', 'benchmarks.md'), 'utf8');

  it('match the benches\' latest results (regenerate with `npm run readme:tables`)', async () => {
    const { updateBenchmarks, readBenchResults } = await loadTables();
    assert.equal(updateBenchmarks(doc, readBenchResults(root)), doc, 'docs/benchmarks.md is out of date: run `npm run readme:tables`');
  });

  it('give every figure the commit and date it was measured on', async () => {
    const { readBenchResults } = await loadTables();
    const results = readBenchResults(root);
    assert.ok(results.length >= 6, `${results.length} results files`);
    for (const r of results) {
      assert.match(r.commit, /^[0-9a-f]{7,40}$/, `${r.bench}: commit`);
      assert.match(r.date, /^\d{4}-\d{2}-\d{2}$/, `${r.bench}: date`);
      assert.ok(r.figures.length > 0, `${r.bench}: figures`);
      assert.ok(doc.includes(`Measured on commit \`${r.commit}\``), `${r.bench}'s commit is shown`);
    }
  });

  it('refuse a results file the page does not show, and a new figure', async () => {
    const { updateBenchmarks, readBenchResults } = await loadTables();
    const results = readBenchResults(root);
    assert.throws(() => updateBenchmarks(doc, [...results, { bench: 'example', commit: 'abcdef0', date: '2026-01-01', figures: [] }]), /no <!-- generated:bench-example/);
    const changed = results.map((r, i) => (i === 0 ? { ...r, figures: [...r.figures, { measure: 'new', value: '1 ms' }] } : r));
    assert.notEqual(updateBenchmarks(doc, changed), doc);
  });
});
