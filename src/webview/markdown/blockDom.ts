import type { BlockView } from './markdownRenderer';
import type { FragmentBuilder } from './nodeBuilder';
import { findTextEdit } from './textEdit';

interface CodeDom {
  element: Element;
  lines: string[];
  lineNodes: ChildNode[][];
  partial: Text;
}

/** The DOM nodes of one top-level block, built from its view by the allowlist builder (nodeBuilder.ts). */
export class BlockDom {
  private constructor(
    private view: BlockView,
    private topNodes: ChildNode[],
    private readonly code: CodeDom | undefined,
    private readonly build: FragmentBuilder,
  ) {}

  /**
   * Builds the block and inserts it before `before`. `lineByLine` keeps a code block's lines apart so that it can
   * later grow (the streaming tail); otherwise its code is built in one go.
   */
  static insert(view: BlockView, build: FragmentBuilder, parent: Node, before: Node | null, lineByLine: boolean): BlockDom {
    if (view.kind === 'html') {
      const fragment = build(view.html);
      const nodes = Array.from(fragment.childNodes);
      parent.insertBefore(fragment, before);
      return new BlockDom(view, nodes, undefined, build);
    }
    const fragment = build(view.shell);
    const nodes = Array.from(fragment.childNodes);
    const element = fragment.querySelector('code');
    let code: CodeDom | undefined;
    if (element && lineByLine) {
      const partial = element.ownerDocument.createTextNode(view.partial);
      code = { element, lines: [], lineNodes: [], partial };
      element.append(partial);
      addLines(code, view.lines, build);
    } else if (element) {
      element.append(build(view.lines.join('')), view.partial);
    }
    parent.insertBefore(fragment, before);
    return new BlockDom(view, nodes, code, build);
  }

  /** The block's top-level nodes, in document order. */
  get nodes(): readonly ChildNode[] {
    return this.topNodes;
  }

  /**
   * Makes this block show `view` by changing it in place; false when that is not possible (rebuild instead). HTML is
   * morphed node by node, so text that only grew keeps its nodes and the browser re-lays out only what changed.
   */
  update(view: BlockView): boolean {
    const current = this.view;
    if (view.kind === 'html') {
      if (current.kind !== 'html') return false;
      if (current.html !== view.html && !this.editText(current.html, view.html)) this.morphTo(view.html);
      this.view = view;
      return true;
    }
    if (current.kind !== 'code' || current.shell !== view.shell || !this.code) return false;
    if (current.lines !== view.lines) {
      const code = this.code;
      let same = 0;
      while (same < code.lines.length && same < view.lines.length && code.lines[same] === view.lines[same]) same++;
      for (const nodes of code.lineNodes.splice(same)) for (const node of nodes) node.remove();
      code.lines.length = same;
      addLines(code, view.lines.slice(same), this.build);
    }
    if (this.code.partial.data !== view.partial) setText(this.code.partial, view.partial);
    this.view = view;
    return true;
  }

  /**
   * Text that grew inside one text run (the common case for an open block) changes that text node in place: no parse,
   * no build, no morph. The node is found by position and checked against the old text; any doubt morphs.
   */
  private editText(old: string, next: string): boolean {
    const edit = findTextEdit(old, next);
    const node = edit && this.textNodeAt(edit.run);
    if (!edit || !node || node.data !== edit.before) return false;
    setText(node, edit.after);
    return true;
  }

  /** The `index`th text node of the block, in document order. */
  private textNodeAt(index: number): Text | undefined {
    let seen = 0;
    for (const top of this.topNodes) {
      if (top.nodeType === Node.TEXT_NODE) {
        if (seen++ === index) return top as Text;
        continue;
      }
      const walker = top.ownerDocument!.createTreeWalker(top, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) if (seen++ === index) return node as Text;
    }
    return undefined;
  }

  private morphTo(html: string): void {
    const next = Array.from(this.build(html).childNodes);
    const last = this.topNodes[this.topNodes.length - 1];
    const parent = last.parentNode!;
    this.topNodes = morphList(parent, this.topNodes, next, last.nextSibling);
  }

  /** The html view it shows, if any (kept blocks re-rendered for link definitions compare against it). */
  get html(): string | undefined {
    return this.view.kind === 'html' ? this.view.html : undefined;
  }

  /** Moves the block's nodes, in order, to the end of `parent`. */
  appendTo(parent: Node): void {
    for (const node of this.topNodes) parent.appendChild(node);
  }

  remove(): void {
    for (const node of this.nodes) node.remove();
  }
}

/** Text that only grew is appended, so the browser can keep the shaped text before it. */
function setText(node: CharacterData, text: string): void {
  const old = node.data;
  if (text.length > old.length && text.startsWith(old)) node.appendData(text.slice(old.length));
  else node.data = text;
}

function addLines(code: CodeDom, lines: string[], build: FragmentBuilder): void {
  for (const line of lines) {
    const fragment = build(line);
    code.lineNodes.push(Array.from(fragment.childNodes));
    code.lines.push(line);
    code.element.insertBefore(fragment, code.partial);
  }
}

/** Turns the `current` sibling run into `next` (built nodes), reusing nodes where the kind matches. */
function morphList(parent: Node, current: readonly ChildNode[], next: ChildNode[], after: Node | null): ChildNode[] {
  const result: ChildNode[] = [];
  const shared = Math.min(current.length, next.length);
  for (let i = 0; i < shared; i++) result.push(morph(current[i], next[i]));
  for (let i = shared; i < current.length; i++) current[i].remove();
  for (let i = shared; i < next.length; i++) {
    parent.insertBefore(next[i], result.length > 0 ? result[result.length - 1].nextSibling : after);
    result.push(next[i]);
  }
  return result;
}

function morph(current: ChildNode, next: ChildNode): ChildNode {
  if (current.nodeType !== next.nodeType || current.nodeName !== next.nodeName) {
    current.replaceWith(next);
    return next;
  }
  if (current instanceof CharacterData) {
    const data = (next as CharacterData).data;
    if (current.data !== data) current.data = data;
    return current;
  }
  const element = current as Element;
  const model = next as Element;
  if (!sameAttributeNames(element, model)) {
    // Attribute order shows in the serialised HTML; rebuilding keeps it identical to a fresh render.
    current.replaceWith(next);
    return next;
  }
  for (const attribute of Array.from(model.attributes)) {
    if (element.getAttribute(attribute.name) !== attribute.value) element.setAttribute(attribute.name, attribute.value);
  }
  morphList(element, Array.from(element.childNodes), Array.from(model.childNodes), null);
  return current;
}

function sameAttributeNames(a: Element, b: Element): boolean {
  if (a.attributes.length !== b.attributes.length) return false;
  for (let i = 0; i < a.attributes.length; i++) if (a.attributes[i].name !== b.attributes[i].name) return false;
  return true;
}
