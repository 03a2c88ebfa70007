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

/** The user seam's folder: the only one that may talk to the user. */
export const SEAM_FOLDER = 'ui/vscode/';
/** VS Code's own names for talking to the user; caught as `window.<name>` and, for a destructured one, bare. */
const WINDOW_CALLS = new Set(['withProgress', 'createQuickPick', 'createInputBox']);
const isUserCall = (name: string) => name.startsWith('show') || WINDOW_CALLS.has(name);
const VSCODE_NAMES = ['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'showQuickPick', 'showInputBox', 'showOpenDialog', 'showSaveDialog', 'showTextDocument', 'showWorkspaceFolderPick', 'showNotebookDocument', 'createQuickPick', 'createInputBox'];
const isWordChar = (c: string | undefined) => c !== undefined && /[\w$]/.test(c);
const isSpace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\t' || c === '\r';

/** The calls of `text` that talk to the user past the seam: `window.<name>` (spaces allowed around the dot) and the bare VS Code names. */
export function userCalls(text: string): string[] {
  const code = withoutComments(text);
  const found: string[] = [];
  for (let at = code.indexOf('window'); at >= 0; at = code.indexOf('window', at + 1)) {
    if (isWordChar(code[at - 1]) || isWordChar(code[at + 6])) continue;
    let i = at + 6;
    while (isSpace(code[i])) i++;
    if (code[i] !== '.') continue;
    i++;
    while (isSpace(code[i])) i++;
    let name = '';
    while (isWordChar(code[i])) name += code[i++];
    if (isUserCall(name)) found.push(`window.${name}`);
  }
  for (const name of VSCODE_NAMES) {
    for (let at = code.indexOf(name); at >= 0; at = code.indexOf(name, at + 1)) {
      if (isWordChar(code[at - 1]) || isWordChar(code[at + name.length]) || code[at - 1] === '.') continue;
      found.push(name);
    }
  }
  return found;
}

/** The calls that talk to the user past the seam, per file outside src/ui/vscode/. */
export function seamBypasses(files: readonly SourceFile[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of files) {
    if (file.path.startsWith(SEAM_FOLDER)) continue;
    const calls = userCalls(file.text);
    if (calls.length > 0) found.set(file.path, calls);
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

/** `text` with its comments blanked (a comment may name an API it explains); strings are kept. */
export function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  let quote: string | undefined;
  while (i < text.length) {
    const c = text[i];
    if (quote) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === quote) quote = undefined;
      i++;
    } else if (c === '"' || c === "'" || c === '`') {
      quote = c;
      out += c;
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

export interface FeatureOutside {
  feature: string;
  /** Its api.ts, if it offers one. */
  offers: string | undefined;
  /** The api.ts files of other features it imports. */
  uses: string[];
}

/** Each feature's outside: the api.ts it offers and those it uses. */
export function outsides(files: readonly SourceFile[], graph: ImportGraph): FeatureOutside[] {
  const paths = new Set(files.map((f) => f.path));
  return FEATURES.map((feature) => {
    const mine = graph.edges.filter((e) => featureOf(e.from) === feature && featureOf(e.to) && featureOf(e.to) !== feature);
    return {
      feature,
      offers: paths.has(apiOf(feature)) ? apiOf(feature) : undefined,
      uses: [...new Set(mine.map((e) => e.to).filter((to) => to === apiOf(featureOf(to)!)))].sort(),
    };
  });
}
