// The layering docs/architecture.md describes, read off the import graph of src/:
// - each feature folder (and ui/) holds core/ and vscode/ only; only vscode/ folders and the composition root
//   import `vscode`, so adapters are known by their folder, not their name;
// - a pure module never loads an adapter (it would import `vscode` through it), and core/ does not even name
//   another feature's adapters;
// - browser code (src/webview/ and the folders it uses) imports neither `vscode` nor Node;
// - the chat protocol (shared by host and webview) imports nothing outside itself;
// - no two folders import each other, directly or through others, and no two files;
// - a feature is used from outside only through its core/api.ts, the user is reached only through the UI seam, and
//   a file loaded on first use only through lazy() (the rules and their reasons are in layering.ts; `npm run
//   check:layering` prints the same).
import * as assert from 'node:assert/strict';
import { findFolderCycles, isAdapterFile, layerOf, topFolderOf } from './importGraph';
import { bareRequires, crossFeatureViolations, FEATURES, fileCircles, impureApis, loadSources, seamBypasses, sourceGraph } from './layering';

describe('layering (src/ import graph)', () => {
  const files = loadSources();
  const graph = sourceGraph(files);

  it('finds the source files and their imports (the rule is not vacuous)', () => {
    assert.ok(files.length > 50, `${files.length} files`);
    assert.ok(graph.edges.length > 100, `${graph.edges.length} imports`);
    assert.ok(graph.vscodeImporters.includes('extension.ts'));
  });

  it('gives each feature folder (and ui/) only core/ and vscode/', () => {
    const features = [...FEATURES, 'ui'];
    const loose = files.map((f) => f.path).filter((p) => features.includes(topFolderOf(p)) && layerOf(p) === undefined);
    assert.deepEqual(loose, [], 'files beside core/ and vscode/');
    for (const feature of features.filter((f) => f !== 'ui')) assert.ok(files.some((f) => f.path === `${feature}/vscode/feature.ts`), `${feature} has a feature definition`);
  });

  it('only the composition root and vscode/ folders import vscode', () => {
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

  it("core/ imports neither vscode nor another feature's adapters, not even a type", () => {
    const bad = graph.edges.filter((e) => layerOf(e.from) === 'core' && isAdapterFile(e.to) && topFolderOf(e.to) !== topFolderOf(e.from)).map((e) => `${e.from} → ${e.to}`);
    const importers = graph.vscodeImporters.filter((p) => layerOf(p) === 'core');
    assert.deepEqual([...bad, ...importers], []);
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

  it('keeps every file of src/ at 450 lines or fewer', () => {
    const long = files.filter((f) => f.text.split('\n').length > 451).map((f) => `${f.path}: ${f.text.split('\n').length - 1} lines`);
    assert.deepEqual(long, []);
  });

  it('no two folders import each other, and no two features', () => {
    const cycles = [...findFolderCycles(graph.edges), ...findFolderCycles(graph.edges, topFolderOf)];
    assert.deepEqual(cycles, [], `folder loops: ${cycles.map((c) => c.join(' ⇄ ')).join('; ')}`);
  });

  it("a feature imports another only through its core/api.ts (the composition root also activates its feature.ts)", () => {
    assert.deepEqual(crossFeatureViolations(graph), [], "imports of another feature's inside");
  });

  it('each api.ts is types and pure helpers: it loads neither vscode nor Node', () => {
    assert.ok(files.some((f) => f.path === 'models/core/api.ts'));
    assert.deepEqual(impureApis(files, graph), []);
  });

  it('no circle between files, type-only imports included', () => {
    assert.deepEqual(fileCircles(graph.edges).map((c) => c.join(' ⇄ ')), [], 'file circles');
  });

  it('talks to the user only through the UI seam (src/ui/vscode/)', () => {
    const offending = [...seamBypasses(files)].map(([file, calls]) => `${file}: ${calls.join(', ')}`);
    assert.deepEqual(offending, [], 'vscode.window.show*, withProgress, createQuickPick or createInputBox outside src/ui/vscode/: go through ui/vscode/userInterface.ts');
  });

  it("loads a file on first use only with lazy(() => require('./file')) (util/lazy.ts)", () => {
    assert.deepEqual(bareRequires(files), [], 'a require of a relative path outside lazy(…)');
  });
});
