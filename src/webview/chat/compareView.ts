// Compare: two or three models' replies to the same question, side by side, each with its time to first token,
// total time and usage, and a button to keep that reply in the thread.
import type { CompareColumn, CompareState } from '../../chatProtocol/messages';
import type { StreamingMarkdown } from '../markdown';
import { el, icon, iconButton, textButton } from './dom';
import { markdownFor, usageText, type TurnContext } from './turnViews';

interface ColumnView {
  markdown: StreamingMarkdown;
  shown: number;
  ended: boolean;
  meta: HTMLElement;
  error: HTMLElement;
  keep: HTMLButtonElement;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function columnMeta(column: CompareColumn): string {
  const parts: string[] = [column.status === 'streaming' ? 'streaming…' : column.status];
  if (column.firstTokenMs !== null) parts.push(`first token ${seconds(column.firstTokenMs)}`);
  if (column.totalMs !== null && column.status !== 'streaming') parts.push(`total ${seconds(column.totalMs)}`);
  if (column.usage) parts.push(usageText(column.usage));
  return parts.join(' · ');
}

export class CompareView {
  readonly root = el('section', { class: 'compare', hidden: true, attrs: { 'aria-label': 'Model comparison' } });
  private readonly question = el('div', { class: 'compare-question' });
  private readonly grid = el('div', { class: 'compare-grid' });
  private columns: ColumnView[] = [];
  private id = '';

  /** `onClose` gets the question back (it goes back to the input: closing without keeping loses nothing typed). */
  constructor(
    private readonly context: TurnContext,
    onClose: (question: string) => void,
  ) {
    const close = () => {
      context.post({ type: 'closeCompare' });
      onClose(this.question.textContent ?? '');
    };
    const header = el('header', { class: 'compare-header' }, icon('split-horizontal'), el('strong', { text: 'Compare' }), this.question, el('span', { class: 'spacer' }), iconButton('close', 'Close the comparison', close));
    this.root.append(header, this.grid);
  }

  get open(): boolean {
    return !this.root.hidden;
  }

  set(state: CompareState | null): void {
    if (!state) return this.clear();
    if (state.id !== this.id) this.build(state);
    state.columns.forEach((column, index) => this.update(this.columns[index], column));
    this.root.hidden = false;
  }

  private clear(): void {
    for (const column of this.columns) column.markdown.dispose();
    this.columns = [];
    this.id = '';
    this.grid.replaceChildren();
    this.root.hidden = true;
  }

  private build(state: CompareState): void {
    this.clear();
    this.id = state.id;
    this.question.textContent = state.question;
    this.grid.style.setProperty('--compare-columns', String(state.columns.length));
    this.columns = state.columns.map((column, index) => {
      const body = el('div', { class: 'content markdown-body' });
      const meta = el('div', { class: 'compare-meta', attrs: { 'aria-live': 'polite' } });
      const error = el('div', { class: 'turn-error', hidden: true });
      const keep = textButton('check', 'Keep This Reply', () => this.context.post({ type: 'keepCompare', id: state.id, index }), 'primary');
      keep.disabled = true;
      this.grid.append(el('article', { class: 'compare-column', attrs: { 'aria-label': `Reply from ${column.model}` } }, el('div', { class: 'compare-model', text: column.model }), meta, body, error, keep));
      return { markdown: markdownFor(body, this.context, () => false), shown: 0, ended: false, meta, error, keep };
    });
  }

  private update(view: ColumnView | undefined, column: CompareColumn): void {
    if (!view) return;
    if (column.content.length > view.shown) {
      view.markdown.append(column.content.slice(view.shown));
      view.shown = column.content.length;
    }
    if (column.status !== 'streaming' && !view.ended) {
      view.ended = true;
      view.markdown.end();
      this.context.announcer.say(`${column.model}: ${column.status}.`);
    }
    view.meta.textContent = columnMeta(column);
    view.error.textContent = column.error;
    view.error.hidden = column.error === '';
    // A reply that broke off keeps its text: it can be kept, and joins the thread marked interrupted.
    view.keep.disabled = column.status === 'streaming' || column.status === 'failed' || column.content === '';
    view.keep.title = column.status === 'interrupted' ? 'Keep the text that arrived; it joins the thread marked interrupted' : '';
  }
}
