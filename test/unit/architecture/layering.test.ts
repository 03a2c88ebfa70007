// The layering the README's Layout section describes, read off the import graph of src/:
// - only the composition root, src/ui/ and files named as UI adapters import `vscode`;
// - a pure core never imports an adapter (it would import `vscode` through it);
// - browser code (src/webview/ and the folders it uses) imports neither `vscode` nor Node;
// - the chat protocol (shared by host and webview) imports nothing outside itself;
// - no two folders import each other, directly or through others.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { analyzeImports, findFolderCycles, isAdapterFile, type SourceFile } from './importGraph';

const root = join(__dirname, '../../../..');
const src = join(root, 'src');

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return listSources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function loadSources(): SourceFile[] {
  return listSources(src).map((file) => ({ path: relative(src, file).split('\\').join('/'), text: readFileSync(file, 'utf8') }));
}

describe('layering (src/ import graph)', () => {
  const files = loadSources();
  const graph = analyzeImports(files, (from, spec) => relative(src, resolve(dirname(join(src, from)), spec)).split('\\').join('/'));

  it('finds the source files and their imports (the rule is not vacuous)', () => {
    assert.ok(files.length > 50, `${files.length} files`);
    assert.ok(graph.edges.length > 100, `${graph.edges.length} imports`);
    assert.ok(graph.vscodeImporters.includes('extension.ts'));
  });

  it('only the composition root, src/ui/ and UI adapters import vscode', () => {
    const offenders = graph.vscodeImporters.filter((file) => !isAdapterFile(file));
    assert.deepEqual(offenders, [], `pure modules importing vscode: ${offenders.join(', ')}`);
  });

  it('every UI adapter says so in its first line', () => {
    const unmarked = graph.vscodeImporters.filter((file) => file !== 'extension.ts' && !files.find((f) => f.path === file)!.text.startsWith('// UI adapter'));
    assert.deepEqual(unmarked, []);
  });

  it('no pure module loads a UI adapter or the composition root (a type-only import loads nothing)', () => {
    const bad = graph.edges.filter((e) => !e.typeOnly && !isAdapterFile(e.from) && (isAdapterFile(e.to) || e.to === 'extension.ts')).map((e) => `${e.from} → ${e.to}`);
    assert.deepEqual(bad, []);
  });

  it('browser code imports neither vscode nor Node, directly or through what it imports', () => {
    const browserRoots = files.map((f) => f.path).filter((p) => p.startsWith('webview/'));
    const reached = graph.reachableFrom(browserRoots);
    const bad = [...reached].filter((p) => graph.vscodeImporters.includes(p) || graph.nodeImporters.includes(p));
    assert.deepEqual(bad, [], `browser code reaches vscode or Node through: ${bad.join(', ')}`);
  });

  it('the chat protocol, shared by the host and the webview, imports only its own files', () => {
    const outside = graph.edges.filter((e) => e.from.startsWith('chatProtocol/') && !e.to.startsWith('chatProtocol/')).map((e) => `${e.from} → ${e.to}`);
    const packages = files.filter((f) => f.path.startsWith('chatProtocol/') && /from\s+'(?!\.)/.test(f.text)).map((f) => f.path);
    assert.deepEqual([...outside, ...packages], []);
  });

  it('no two folders import each other', () => {
    const cycles = findFolderCycles(graph.edges);
    assert.deepEqual(cycles, [], `folder loops: ${cycles.map((c) => c.join(' ⇄ ')).join('; ')}`);
  });
});
