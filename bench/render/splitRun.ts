// `--only split`: where a one-shot render's script goes, step by step, in the bench page: what a Web Worker could take
// off the main thread (parse, render and highlight) against what needs the page's DOM (DOMPurify's walk, parsing the
// HTML, inserting and laying it out). The last row builds the same blocks from a node tree with the sanitiser's
// allowlist checked per node, as the main thread would if the worker sent trees instead of HTML. Figures for reading
// (shares within one run), not for docs/benchmarks.md's ratios.
import type { Browser } from 'playwright-core';
import { freshPage } from './benchPage';

export interface SplitResult {
  blocks: number;
  parseMs: number;
  renderMs: number;
  sanitizeInsertMs: number;
  trustedInsertMs: number;
  treeInsertMs: number;
  /** The renderer's own path since DOMPurify left it: nodeBuilder reads the HTML and builds checked nodes. */
  builderInsertMs: number;
  /** The tree-built and builder-built DOMs equal the sanitised one (so the rows compare the same work). */
  treeSame: boolean;
  builderSame: boolean;
}

/** Runs in the page (window.MD, window.benchText): one round of every step on the whole reply. */
export function runSplit(): SplitResult {
  type MD = typeof import('../../test/browser/markdownTestEntry');
  const md = (window as unknown as { MD: MD }).MD;
  const text = (window as unknown as { benchText: string }).benchText;
  const renderer = new md.MarkdownRenderer();
  const sanitize = md.createSanitizer(window);
  const out = document.getElementById('out')!;
  const time = (run: () => void): number => {
    const startedAt = performance.now();
    run();
    return performance.now() - startedAt;
  };
  const layout = () => void out.getBoundingClientRect().height;
  const reset = () => {
    out.replaceChildren();
    layout();
  };

  let parsed = renderer.parse(text, Object.create(null) as Record<string, never>, false);
  const parseMs = time(() => (parsed = renderer.parse(text, Object.create(null) as Record<string, never>, false)));
  let html: string[] = [];
  const renderMs = time(() => {
    html = parsed.blocks.map((block) => {
      const view = renderer.renderBlock(block, parsed.env);
      return view.kind === 'html' ? view.html : view.shell.replace('</code>', view.lines.join('') + '</code>');
    });
  });
  reset();
  const sanitizeInsertMs = time(() => {
    for (const block of html) out.append(sanitize(block));
    layout();
  });
  const sanitizedHtml = out.innerHTML;
  // The tree a worker would send: taken from the sanitised DOM, so every row builds the same nodes.
  type Tree = string | [string, Array<[string, string]>, Tree[]];
  const toTree = (node: ChildNode): Tree =>
    node.nodeType === Node.TEXT_NODE ? (node as Text).data : [(node as Element).localName, Array.from((node as Element).attributes, (a): [string, string] => [a.name, a.value]), Array.from(node.childNodes, toTree)];
  const trees = html.map((block) => JSON.stringify(Array.from(sanitize(block).childNodes, toTree)));
  reset();
  const trustedInsertMs = time(() => {
    for (const block of html) {
      const template = document.createElement('template');
      template.innerHTML = block;
      out.append(template.content);
    }
    layout();
  });
  reset();
  const tags = new Set(['a', 'blockquote', 'br', 'button', 'code', 'del', 'div', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'li', 'ol', 'p', 'pre', 's', 'span', 'strong', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul']);
  const attributes = new Set(['title', 'class', 'start', 'type', 'aria-label', 'aria-hidden', 'data-href', 'data-lang', 'data-action', 'tabindex', 'role']);
  const build = (tree: Tree, parent: Node): void => {
    if (typeof tree === 'string') {
      parent.appendChild(document.createTextNode(tree));
      return;
    }
    const [tag, attrs, children] = tree;
    if (!tags.has(tag)) return;
    const element = document.createElement(tag);
    for (const [name, value] of attrs) if (attributes.has(name) && (name !== 'data-href' || /^https?:\/\//i.test(value))) element.setAttribute(name, value);
    for (const child of children) build(child, element);
    parent.appendChild(element);
  };
  const treeInsertMs = time(() => {
    for (const json of trees) {
      const fragment = document.createDocumentFragment();
      for (const tree of JSON.parse(json) as Tree[]) build(tree, fragment);
      out.append(fragment);
    }
    layout();
  });
  const treeSame = out.innerHTML === sanitizedHtml;
  reset();
  const builder = md.createBuilder(document);
  const builderInsertMs = time(() => {
    for (const block of html) out.append(builder(block));
    layout();
  });
  const builderSame = out.innerHTML === sanitizedHtml;
  reset();
  return { blocks: parsed.blocks.length, parseMs, renderMs, sanitizeInsertMs, trustedInsertMs, treeInsertMs, treeSame, builderInsertMs, builderSame };
}

export async function splitBench(browser: Browser, url: string, deltas: string[], rounds: number): Promise<object> {
  const results: SplitResult[] = [];
  for (let i = 0; i < rounds; i++) {
    const { page, close } = await freshPage(browser, url, deltas);
    try {
      results.push(await page.evaluate(runSplit));
    } finally {
      await close();
    }
  }
  const median = (key: Exclude<keyof SplitResult, 'treeSame' | 'builderSame'>) => results.map((result) => result[key]).sort((a, b) => a - b)[Math.floor(results.length / 2)];
  const m = { parse: median('parseMs'), render: median('renderMs'), sanitizeInsert: median('sanitizeInsertMs'), trusted: median('trustedInsertMs'), tree: median('treeInsertMs'), builder: median('builderInsertMs') };
  const whole = m.parse + m.render + m.sanitizeInsert;
  const row = (label: string, ms: number) => console.log(`  ${label.padEnd(76)} ${ms.toFixed(1).padStart(7)} ms  ${((ms / whole) * 100).toFixed(0).padStart(3)}%`);
  console.log(`split of a one-shot render (${results[0].blocks} blocks, every block in the container, no runs), median of ${rounds} fresh pages:`);
  row('parse (markdown-it)', m.parse);
  row('render + highlight (HTML strings)', m.render);
  row('sanitise + insert + layout (inert parse, DOMPurify, move in)', m.sanitizeInsert);
  row('  of which: parse + insert + layout, no DOMPurify', m.trusted);
  row('  of which: DOMPurify (the difference)', m.sanitizeInsert - m.trusted);
  row(`build from a node tree, allowlist per node, + insert + layout (${results.every((r) => r.treeSame) ? 'same DOM' : 'DOM DIFFERS'})`, m.tree);
  row(`build with nodeBuilder from the HTML (the renderer's path), + insert + layout (${results.every((r) => r.builderSame) ? 'same DOM' : 'DOM DIFFERS'})`, m.builder);
  console.log(`  a worker sending HTML takes parse + render off the main thread: ${(((m.parse + m.render) / whole) * 100).toFixed(0)}%;`);
  console.log(`  sending node trees as well (the main thread builds them, checked): ${((1 - m.tree / whole) * 100).toFixed(0)}%`);
  return { rounds: results, median: m };
}
