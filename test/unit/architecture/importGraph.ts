// Reads the import graph of the source tree for the layering test: which file imports which, which import
// `vscode` or Node, and which folders depend on each other.
import { builtinModules } from 'node:module';

export interface SourceFile {
  /** Relative to src/, with forward slashes. */
  path: string;
  text: string;
}

export interface ImportEdge {
  from: string;
  to: string;
  /** `import type …`: erased from the JavaScript, so it loads nothing at run time (it still ties folders). */
  typeOnly: boolean;
}

export interface ImportGraph {
  edges: ImportEdge[];
  vscodeImporters: string[];
  nodeImporters: string[];
  /** The files loading these loads: run-time imports only (a type-only import is erased, so it loads nothing). */
  reachableFrom(paths: readonly string[]): Set<string>;
}

const SPECIFIER = /(?:^|[\s;])(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\b(?:import|require)\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
const NODE_ONLY_PACKAGES = new Set(['undici']);
const NODE_BUILTINS = new Set(builtinModules);

/** The module specifiers a TypeScript file imports, type-only imports included (they still tie folders together). */
export function importSpecifiers(text: string): string[] {
  return importsOf(text).map((i) => i.specifier);
}

function importsOf(text: string): Array<{ specifier: string; typeOnly: boolean }> {
  const withoutComments = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return [...withoutComments.matchAll(SPECIFIER)].map((m) => ({ specifier: m[1] ?? m[2] ?? m[3], typeOnly: /^\s*(?:import|export)\s+type\b/.test(m[0].replace(/^[\s;]+/, '')) }));
}

/**
 * The composition root and every file in a `vscode/` folder: a feature's adapters (commands, views, panels, its
 * definition) and ui/vscode/, the shared ones. Browser code in src/webview/ has views too, but never adapters.
 */
export function isAdapterFile(path: string): boolean {
  return path === 'extension.ts' || path.split('/').slice(0, -1).includes('vscode');
}

/** A feature folder's layer: `core` (never imports vscode) or `vscode` (its adapters); undefined outside them. */
export function layerOf(path: string): 'core' | 'vscode' | undefined {
  const layer = path.split('/')[1];
  return layer === 'core' || layer === 'vscode' ? layer : undefined;
}

/** The top folder: the feature (`videos` for videos/core/jobStore.ts), or a shared layer (gateway, util…). */
export function topFolderOf(path: string): string {
  const slash = path.indexOf('/');
  return slash < 0 ? '.' : path.slice(0, slash);
}

export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '.' : path.slice(0, slash);
}

export function analyzeImports(files: readonly SourceFile[], resolvePath: (from: string, specifier: string) => string): ImportGraph {
  const known = new Set(files.map((f) => f.path));
  const edges: ImportEdge[] = [];
  const vscodeImporters: string[] = [];
  const nodeImporters: string[] = [];
  for (const file of files) {
    for (const { specifier: spec, typeOnly } of importsOf(file.text)) {
      if (spec === 'vscode') {
        if (!vscodeImporters.includes(file.path)) vscodeImporters.push(file.path);
      } else if (spec.startsWith('.')) {
        const base = resolvePath(file.path, spec);
        const to = [`${base}.ts`, `${base}/index.ts`, base].find((candidate) => known.has(candidate));
        if (to) edges.push({ from: file.path, to, typeOnly });
      } else if (spec.startsWith('node:') || NODE_BUILTINS.has(spec) || NODE_ONLY_PACKAGES.has(spec.split('/')[0])) {
        if (!nodeImporters.includes(file.path)) nodeImporters.push(file.path);
      }
    }
  }
  const reachableFrom = (paths: readonly string[]): Set<string> => {
    const seen = new Set<string>();
    const stack = [...paths];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      seen.add(next);
      for (const e of edges) if (e.from === next && !e.typeOnly) stack.push(e.to);
    }
    return seen;
  };
  return { edges, vscodeImporters: vscodeImporters.sort(), nodeImporters: nodeImporters.sort(), reachableFrom };
}

/** Groups of folders that import each other (strongly connected components of more than one folder). */
export function findFolderCycles(edges: readonly ImportEdge[], folderOfFile: (path: string) => string = folderOf): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const a = folderOfFile(from);
    const b = folderOfFile(to);
    if (a === b) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    if (!graph.has(b)) graph.set(b, new Set());
    graph.get(a)!.add(b);
  }
  // Tarjan's algorithm.
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    indices.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indices.get(next)!));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) visit(node);
  return cycles;
}
