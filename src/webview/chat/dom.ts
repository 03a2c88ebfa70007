// Tiny DOM helpers for the chat webview. Text always goes in as text nodes, never as HTML.

type Child = Node | string | null | undefined | false;

export interface ElementProps {
  class?: string;
  text?: string;
  attrs?: Record<string, string>;
  hidden?: boolean;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: ElementProps = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.class) node.className = props.class;
  if (props.text !== undefined) node.textContent = props.text;
  if (props.hidden) node.hidden = true;
  for (const [name, value] of Object.entries(props.attrs ?? {})) node.setAttribute(name, value);
  for (const child of children) if (child) node.append(child);
  return node;
}

export function icon(name: string): HTMLSpanElement {
  return el('span', { class: `codicon codicon-${name}`, attrs: { 'aria-hidden': 'true' } });
}

/** A toolbar button with an icon; `label` is its accessible name and tooltip. */
export function iconButton(name: string, label: string, onClick: () => void, extraClass = ''): HTMLButtonElement {
  const button = el('button', { class: `icon-button ${extraClass}`.trim(), attrs: { type: 'button', title: label, 'aria-label': label } }, icon(name));
  button.addEventListener('click', onClick);
  return button;
}

/** A button with an icon and a visible label. */
export function textButton(name: string, label: string, onClick: () => void, extraClass = ''): HTMLButtonElement {
  const button = el('button', { class: `text-button ${extraClass}`.trim(), attrs: { type: 'button' } }, icon(name), el('span', { class: 'label', text: label }));
  button.addEventListener('click', onClick);
  return button;
}

export function setLabel(button: HTMLButtonElement, label: string): void {
  const span = button.querySelector('.label');
  if (span) span.textContent = label;
  else {
    button.title = label;
    button.setAttribute('aria-label', label);
  }
}
