// The layering test's reader must catch what it is there to catch: shown here on small made-up trees.
import * as assert from 'node:assert/strict';
import { posix } from 'node:path';
import { analyzeImports, findFolderCycles, importSpecifiers, isAdapterFile, type SourceFile } from './importGraph';
import { crossFeatureViolations, fileCircles, hasBareRequire, seamBypasses } from './layering';

const resolvePath = (from: string, spec: string) => posix.normalize(posix.join(posix.dirname(from), spec));

describe('import graph reader', () => {
  it('reads static, type-only, re-export, side-effect and dynamic imports, not commented ones', () => {
    const text = [
      "import * as vscode from 'vscode';",
      "import type { A } from '../a/a';",
      "export { B } from './b';",
      "import './c';",
      "const d = require('./d') as typeof import('./e');",
      "// import { x } from './commented';",
      "/* import { y } from './block'; */",
    ].join('\n');
    assert.deepEqual(importSpecifiers(text).sort(), ['../a/a', './b', './c', './d', './e', 'vscode']);
  });

  it('marks type-only imports, which load nothing at run time', () => {
    const files: SourceFile[] = [{ path: 'a/x.ts', text: "import type { V } from './v';\nimport { w } from './w';\nexport type { U } from './u';" }, { path: 'a/v.ts', text: '' }, { path: 'a/w.ts', text: '' }, { path: 'a/u.ts', text: '' }];
    const edges = analyzeImports(files, resolvePath).edges.map((e) => `${e.to} ${e.typeOnly}`).sort();
    assert.deepEqual(edges, ['a/u.ts true', 'a/v.ts true', 'a/w.ts false']);
  });

  it('tells adapters from pure modules by folder, not by name', () => {
    for (const adapter of ['extension.ts', 'ui/vscode/notify.ts', 'videos/vscode/videoJobsView.ts', 'videos/vscode/feature.ts', 'chat/vscode/context/workspaceContextProvider.ts', 'models/vscode/lmProvider.ts']) {
      assert.ok(isAdapterFile(adapter), adapter);
    }
    for (const pure of ['videos/core/jobStore.ts', 'gateway/client.ts', 'chat/core/sessionStore.ts', 'videos/core/jobTreeView.ts', 'webview/chat/settingsView.ts', 'ui/core/errorAdvice.ts', 'chat/core/vscode.ts']) assert.ok(!isAdapterFile(pure), pure);
  });

  it('finds a loop between two folders, and a longer one through a third', () => {
    const files: SourceFile[] = [
      { path: 'a/x.ts', text: "import { y } from '../b/y';" },
      { path: 'b/y.ts', text: "import type { X } from '../a/x';" },
      { path: 'c/z.ts', text: "import { w } from '../d/w';" },
      { path: 'd/w.ts', text: "import { v } from '../e/v';" },
      { path: 'e/v.ts', text: "import { z } from '../c/z';" },
      { path: 'f/u.ts', text: "import { y } from '../b/y';" },
    ];
    const graph = analyzeImports(files, resolvePath);
    assert.deepEqual(findFolderCycles(graph.edges), [['a', 'b'], ['c', 'd', 'e']]);
  });

  it('sees vscode and Node reached through other files', () => {
    const files: SourceFile[] = [
      { path: 'webview/app.ts', text: "import { f } from '../shared/f';" },
      { path: 'shared/f.ts', text: "import { g } from '../node/g';" },
      { path: 'node/g.ts', text: "import { readFileSync } from 'node:fs'; import { request } from 'undici';" },
      { path: 'ui/h.ts', text: "import * as vscode from 'vscode';" },
      { path: 'webview/types.ts', text: "import type { G } from '../node/g';" },
    ];
    const graph = analyzeImports(files, resolvePath);
    assert.deepEqual(graph.nodeImporters, ['node/g.ts']);
    assert.deepEqual(graph.vscodeImporters, ['ui/h.ts']);
    assert.deepEqual([...graph.reachableFrom(['webview/app.ts'])].sort(), ['node/g.ts', 'shared/f.ts', 'webview/app.ts']);
    // A type-only import loads nothing at run time.
    assert.deepEqual([...graph.reachableFrom(['webview/types.ts'])], ['webview/types.ts']);
  });

  it('finds circles between files, type-only imports included, and none in a chain', () => {
    const files: SourceFile[] = [
      { path: 'f/vscode/feature.ts', text: "import { run } from './commands';\nexport const IDS = {};" },
      { path: 'f/vscode/commands.ts', text: "import type { IDS } from './feature';" },
      { path: 'f/core/a.ts', text: "import { b } from './b';" },
      { path: 'f/core/b.ts', text: "import { c } from './c';" },
      { path: 'f/core/c.ts', text: '' },
    ];
    assert.deepEqual(fileCircles(analyzeImports(files, resolvePath).edges), [['f/vscode/commands.ts', 'f/vscode/feature.ts']]);
  });

  it("tells an import of another feature's api.ts from one of its inside", () => {
    const files: SourceFile[] = [
      { path: 'chat/core/a.ts', text: "import { x } from '../../models/core/api';\nimport { y } from '../../models/core/modelKind';\nimport { z } from './b';" },
      { path: 'extension.ts', text: "import { modelsFeature } from './models/vscode/feature';\nimport { k } from './models/core/modelKind';" },
      { path: 'models/core/api.ts', text: '' },
      { path: 'models/core/modelKind.ts', text: '' },
      { path: 'models/vscode/feature.ts', text: '' },
      { path: 'chat/core/b.ts', text: '' },
    ];
    assert.deepEqual(crossFeatureViolations(analyzeImports(files, resolvePath)), ['chat/core/a.ts → models/core/modelKind.ts', 'extension.ts → models/core/modelKind.ts']);
  });

  it('finds a require of a relative path outside lazy(), not one inside it', () => {
    assert.equal(hasBareRequire("const m = lazy(() => require('./x') as typeof import('./x'));"), false);
    assert.equal(hasBareRequire("const m = lazy<X>(() => {\n  const { a } = require('./x');\n  return a(f(1));\n});"), false);
    assert.equal(hasBareRequire("undici = require('undici/lib/api');"), false);
    assert.equal(hasBareRequire("loaded ??= require('./x');"), true);
    assert.equal(hasBareRequire("const a = lazy(() => 1);\nconst b = require('../y');"), true);
  });

  it('counts the calls that talk to the user past the seam, not those in ui/vscode/ or in comments', () => {
    const files: SourceFile[] = [
      { path: 'auth/vscode/k.ts', text: "await vscode.window.showInputBox({});\nvscode.window.withProgress(o, f);\n// vscode.window.showErrorMessage('x');\nvscode.window.createOutputChannel('x');" },
      { path: 'ui/vscode/userInterface.ts', text: 'vscode.window.showQuickPick(items);' },
    ];
    assert.deepEqual([...seamBypasses(files)], [['auth/vscode/k.ts', ['window.showInputBox', 'window.withProgress']]]);
  });
});
