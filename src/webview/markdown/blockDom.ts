import type { BlockView } from './markdownRenderer';
import type { FragmentSanitizer } from './sanitizer';

interface CodeDom {
  element: Element;
  lines: string[];
  lineNodes: ChildNode[][];
  partial: Text;
}

/** The DOM nodes of one top-level block, built from its view through the sanitizer. */
export class BlockDom {
  private constructor(
    private view: BlockView,
    readonly nodes: ChildNode[],
    private readonly code: CodeDom | undefined,
    private readonly sanitize: FragmentSanitizer,
  ) {}

  /**
   * Builds the block and inserts it before `before`. `lineByLine` keeps a code block's lines apart so that it can
   * later grow (the streaming tail); otherwise its code is sanitised in one go.
   */
  static insert(view: BlockView, sanitize: FragmentSanitizer, parent: Node, before: Node | null, lineByLine: boolean): BlockDom {
    if (view.kind === 'html') {
      const fragment = sanitize(view.html);
      const nodes = Array.from(fragment.childNodes);
      parent.insertBefore(fragment, before);
      return new BlockDom(view, nodes, undefined, sanitize);
    }
    const fragment = sanitize(view.shell);
    const nodes = Array.from(fragment.childNodes);
    const element = fragment.querySelector('code');
    let code: CodeDom | undefined;
    if (element && lineByLine) {
      const partial = element.ownerDocument.createTextNode(view.partial);
      code = { element, lines: [], lineNodes: [], partial };
      element.append(partial);
      addLines(code, view.lines, sanitize);
    } else if (element) {
      element.append(sanitize(view.lines.join('')), view.partial);
    }
    parent.insertBefore(fragment, before);
    return new BlockDom(view, nodes, code, sanitize);
  }

  /** Makes this block show `view` by changing it in place; false when that is not possible (rebuild instead). */
  update(view: BlockView): boolean {
    const current = this.view;
    if (view.kind === 'html') return current.kind === 'html' && current.html === view.html;
    if (current.kind !== 'code' || current.shell !== view.shell || !this.code) return false;
    if (current.lines !== view.lines) {
      const code = this.code;
      let same = 0;
      while (same < code.lines.length && same < view.lines.length && code.lines[same] === view.lines[same]) same++;
      for (const nodes of code.lineNodes.splice(same)) for (const node of nodes) node.remove();
      code.lines.length = same;
      addLines(code, view.lines.slice(same), this.sanitize);
    }
    if (this.code.partial.data !== view.partial) this.code.partial.data = view.partial;
    this.view = view;
    return true;
  }

  /** The html view it shows, if any (kept blocks re-rendered for link definitions compare against it). */
  get html(): string | undefined {
    return this.view.kind === 'html' ? this.view.html : undefined;
  }

  remove(): void {
    for (const node of this.nodes) node.remove();
  }
}

function addLines(code: CodeDom, lines: string[], sanitize: FragmentSanitizer): void {
  for (const line of lines) {
    const fragment = sanitize(line);
    code.lineNodes.push(Array.from(fragment.childNodes));
    code.lines.push(line);
    code.element.insertBefore(fragment, code.partial);
  }
}
