// The rules that keep every feature the same from the outside, read off the import graph of src/: what the layering
// test asserts and what `npm run check:layering` prints (checkLayering.ts).
//
// A feature is a folder with core/ and vscode/ (FEATURES). Everything else under src/ is a shared layer that
// features build on (SHARED_LAYERS): the gateway connection, the settings, the UI seam and shared adapters (ui/),
// small utilities, the chat protocol shared by host and page, and the browser pages (webview/). extension.ts is the
// composition root.
// - A file of feature A imports from feature B only `B/core/api.ts`: types and pure helpers, which load neither
//   vscode nor Node. A shared layer reaches a feature the same way; the composition root also activates each
//   feature's `vscode/feature.ts`.
// - No circle between files, type-only imports included: a type circle still ties two files' concepts together
//   (neither can be read or moved alone), and breaking one costs a small shared file.
// - The user is reached through the UI seam (src/ui/vscode/): `vscode.window.show*`, `withProgress`,
//   `createQuickPick` and `createInputBox` appear nowhere else.
// - A file loaded on first use is loaded with `lazy(() => require('./file'))` (util/lazy.ts): no other require of a
//   relative path.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { analyzeImports, type ImportEdge, type ImportGraph, type SourceFile } from './importGraph';

export const FEATURES = ['auth', 'chat', 'diagnostics', 'lmTools', 'media', 'models', 'usage', 'videos'] as const;
export const SHARED_LAYERS = ['chatProtocol', 'gateway', 'settings', 'ui', 'util', 'webview'] as const;
export const COMPOSITION_ROOT = 'extension.ts';

/**
 * What media/ and videos/ still do against these rules until their services split lands: chat/core/hub/ports.ts
 * becomes media/core/api.ts and videos/core/api.ts, their command tables leave feature.ts, and their own imports go
 * through the other features' api.ts. That work empties this list. Each rule fails on an entry that no longer
 * occurs, so the list can only shrink.
 */
export const PENDING_SERVICE_SPLIT = {
  /** `from → to` imports of another feature's inside. */
  imports: [
  ],
  /** Folders whose file circles (through the command tables in feature.ts) may remain. */
  circles: [],
  /** Files with a require of a relative path outside `lazy(…)`. */
  requires: [],
} as const;

/**
 * The files that still talk to the user past the seam (`vscode.window.show*`, `withProgress`, `createQuickPick`,
 * `createInputBox` outside src/ui/vscode/). Their calls move into the seam (ui/vscode/userInterface.ts); the rule
 * fails on a file that is not listed, and on a listed file that no longer needs to be, so this only shrinks.
 */
export const SEAM_BYPASS_TODAY = [
  'auth/vscode/keyCommands.ts',
  'auth/vscode/profileCommands.ts',
  'auth/vscode/profileStartup.ts',
  'chat/vscode/applyCode.ts',
  'chat/vscode/chatEditors.ts',
  'chat/vscode/chatExport.ts',
  'chat/vscode/chatPanelManager.ts',
  'chat/vscode/compareCommand.ts',
  'chat/vscode/context/workspaceContextProvider.ts',
  'chat/vscode/instructionFiles.ts',
  'chat/vscode/sessionStoreReporter.ts',
  'diagnostics/vscode/testConnectionCommand.ts',
  'extension.ts',
  'media/vscode/mediaInputsView.ts',
  'models/vscode/lmProvider.ts',
  'models/vscode/modelCommands.ts',
  'videos/vscode/feature.ts',
  'videos/vscode/wizardInputsView.ts',
] as const;

const root = join(__dirname, '../../../..');
const src = join(root, 'src');

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return listSources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

export function loadSources(): SourceFile[] {
  return listSources(src).map((file) => ({ path: relative(src, file).split('\\').join('/'), text: readFileSync(file, 'utf8') }));
}

export function sourceGraph(files: readonly SourceFile[]): ImportGraph {
  return analyzeImports(files, (from, spec) => relative(src, resolve(dirname(join(src, from)), spec)).split('\\').join('/'));
}

const featureOf = (path: string): string | undefined => (FEATURES as readonly string[]).find((f) => path.startsWith(`${f}/`));
export const apiOf = (feature: string): string => `${feature}/core/api.ts`;
const edgeName = (e: Pick<ImportEdge, 'from' | 'to'>): string => `${e.from} → ${e.to}`;

/** Imports of another feature past its api.ts (the composition root may also activate its feature.ts). */
export function crossFeatureViolations(graph: ImportGraph): string[] {
  const bad = graph.edges.filter((e) => {
    const target = featureOf(e.to);
    if (!target || featureOf(e.from) === target || e.to === apiOf(target)) return false;
    return !(e.from === COMPOSITION_ROOT && e.to === `${target}/vscode/feature.ts`);
  });
  return [...new Set(bad.map(edgeName))].sort();
}

/** What an api.ts loads that is not pure: vscode or Node, reached through its run-time imports. */
export function impureApis(files: readonly SourceFile[], graph: ImportGraph): string[] {
  const apis = files.map((f) => f.path).filter((p) => featureOf(p) && p === apiOf(featureOf(p)!));
  return apis.flatMap((api) => [...graph.reachableFrom([api])].filter((p) => graph.vscodeImporters.includes(p) || graph.nodeImporters.includes(p)).map((p) => `${api} loads ${p}`));
}

/** Circles between files (strongly connected components of more than one file), type-only imports included. */
export function fileCircles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string): void => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!indices.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, indices.get(to)!));
    }
    if (low.get(node) !== indices.get(node)) return;
    const circle: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      circle.push(member);
    } while (member !== node);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const node of [...next.keys()].sort()) if (!indices.has(node)) visit(node);
  return circles.sort((a, b) => a[0].localeCompare(b[0]));
}

const SEAM_CALL = /\bwindow\s*\.\s*(?:show[A-Za-z]*|withProgress|createQuickPick|createInputBox)\b/g;

/** Calls that talk to the user past the seam, per file outside src/ui/vscode/. */
export function seamBypasses(files: readonly SourceFile[]): Map<string, number> {
  const found = new Map<string, number>();
  for (const file of files) {
    if (file.path.startsWith('ui/vscode/')) continue;
    const count = withoutComments(file.text).match(SEAM_CALL)?.length ?? 0;
    if (count > 0) found.set(file.path, count);
  }
  return found;
}

/** Files with a require of a relative path that is not the body of a `lazy(…)` call. */
export function bareRequires(files: readonly SourceFile[]): string[] {
  return files.filter((f) => hasBareRequire(withoutComments(f.text))).map((f) => f.path);
}

/** Whether some `require('./…')` of `text` lies outside the parentheses of every `lazy(…)` / `lazy<T>(…)` call. */
export function hasBareRequire(text: string): boolean {
  const spans: Array<[number, number]> = [];
  for (const call of text.matchAll(/\blazy\s*(?:<[^()]*?>)?\s*\(/g)) {
    const open = call.index! + call[0].length - 1;
    let depth = 0;
    for (let i = open; i < text.length; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')' && --depth === 0) {
        spans.push([open, i]);
        break;
      }
    }
  }
  return [...text.matchAll(/\brequire\s*\(\s*['"`]\./g)].some((m) => !spans.some(([a, b]) => m.index! > a && m.index! < b));
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** What a list of exceptions no longer needs (a rule's allowlist may only shrink). */
export function stale(allowed: readonly string[], found: readonly string[]): string[] {
  return allowed.filter((entry) => !found.includes(entry));
}

export interface FeatureOutside {
  feature: string;
  /** Its api.ts, if it offers one. */
  offers: string | undefined;
  /** The api.ts files of other features it imports. */
  uses: string[];
  /** Its imports of another feature's inside still waiting on PENDING_SERVICE_SPLIT. */
  pending: string[];
}

/** Each feature's outside: the api.ts it offers and those it uses. */
export function outsides(files: readonly SourceFile[], graph: ImportGraph): FeatureOutside[] {
  const paths = new Set(files.map((f) => f.path));
  const pending = crossFeatureViolations(graph);
  return FEATURES.map((feature) => {
    const mine = graph.edges.filter((e) => featureOf(e.from) === feature && featureOf(e.to) && featureOf(e.to) !== feature);
    return {
      feature,
      offers: paths.has(apiOf(feature)) ? apiOf(feature) : undefined,
      uses: [...new Set(mine.map((e) => e.to).filter((to) => to === apiOf(featureOf(to)!)))].sort(),
      pending: pending.filter((p) => p.startsWith(`${feature}/`)),
    };
  });
}
