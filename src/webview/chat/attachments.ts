// The context above the chat input: the Add Context button, `#` completion, a chip per attachment (estimated
// tokens, remove), the estimated total against the model's context window with an overflow warning that offers to
// trim the largest attachment, and images pasted or dropped into the input. The host holds the attachments; this
// only shows them and asks for changes.
import { ATTACHMENT_LIMITS, estimateTextTokens, isImageType, type AttachmentChip, type ImageType } from '../../chatProtocol/attachments';
import type { ContextSource, ContextState, OverflowChoice, WebviewMessage } from '../../chatProtocol/messages';
import { CONTEXT_CHOICES, HASH_ORDER } from '../../chatProtocol/contextChoices';
import { el, icon, iconButton, textButton } from './dom';
import { overflowChoices } from './overflowView';

export interface ContextBarHost {
  post(message: WebviewMessage): void;
  /** An overflow's way out: a request, whose reply the app handles. */
  resolveOverflow(choice: OverflowChoice, text: string): void;
  notify(text: string): void;
  /** Whether the chat has turns before the next message (which the host can leave out or summarize). */
  hasHistory(): boolean;
}

/** What `#` offers, in order. */
export const HASH_ITEMS: ReadonlyArray<{ word: string; source: ContextSource; label: string }> = HASH_ORDER.map((source) => ({ word: CONTEXT_CHOICES[source].word, source, label: CONTEXT_CHOICES[source].hint }));

/** The `#word` being typed just before the caret, if any. */
export function hashQuery(text: string, caret: number): { start: number; query: string } | undefined {
  const match = /(^|\s)#(\w*)$/.exec(text.slice(0, caret));
  return match ? { start: caret - match[2].length - 1, query: match[2].toLowerCase() } : undefined;
}

export function formatTokens(n: number): string {
  return n.toLocaleString('en-US');
}

/** The chips of a message already sent (no remove button). */
export function sentChips(chips: readonly AttachmentChip[]): HTMLElement | null {
  if (chips.length === 0) return null;
  return el('ul', { class: 'chips sent', attrs: { 'aria-label': 'Attached context' } }, ...chips.map((chip) => chipElement(chip)));
}

function chipElement(chip: AttachmentChip, onRemove?: () => void): HTMLElement {
  const item = el(
    'li',
    { class: `chip chip-${chip.kind}`, attrs: { title: chip.detail, 'data-attachment-id': chip.id } },
    icon(chip.kind === 'image' ? 'file-media' : chip.kind === 'audio' ? 'mic' : 'file'),
    el('span', { class: 'chip-label', text: chip.label }),
    el('span', { class: 'chip-tokens', text: `≈${formatTokens(chip.tokens)} tok` }),
  );
  if (onRemove) item.append(iconButton('close', `Remove ${chip.label}`, onRemove, 'chip-remove'));
  return item;
}

export class ContextBar {
  readonly root: HTMLElement;
  private readonly chips = el('ul', { class: 'chips', attrs: { 'aria-label': 'Context for the next message' } });
  private readonly meter = el('span', { class: 'context-meter', attrs: { 'aria-live': 'polite' } });
  private readonly warning = el('div', { class: 'context-warning', hidden: true, attrs: { role: 'alert' } });
  private readonly menu = el('ul', { class: 'hash-menu', hidden: true, attrs: { role: 'listbox', 'aria-label': 'Attach context' } });
  private state: ContextState = { chips: [], baseTokens: 0, window: 1, windowSource: 'setting', warning: '' };
  /** Said here until the context next changes (an image that could not be attached, a drop without Shift). */
  private notice = '';
  private menuIndex = 0;
  private menuItems: typeof HASH_ITEMS = [];

  constructor(
    private readonly input: HTMLTextAreaElement,
    private readonly host: ContextBarHost,
  ) {
    const add = textButton('add', 'Add Context', () => host.post({ type: 'addContext', source: 'menu' }), 'add-context');
    add.title = 'Attach the active file, the selection, open editors, a workspace file or problems (or type #)';
    this.root = el('div', { class: 'context-bar' }, el('div', { class: 'context-row' }, add, this.chips, el('span', { class: 'spacer' }), this.meter), this.warning, this.menu);
    input.addEventListener('input', () => {
      this.render();
      this.updateMenu();
    });
    input.addEventListener('keydown', (event) => this.onKeyDown(event), true);
    input.addEventListener('blur', () => setTimeout(() => this.hideMenu(), 150));
    input.addEventListener('paste', (event) => this.onPaste(event));
  }

  /** Takes drops on the whole composer: files from the Explorer and images. */
  acceptDrops(area: HTMLElement): void {
    area.addEventListener('dragover', (event) => {
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    });
    area.addEventListener('drop', (event) => this.onDrop(event));
  }

  set(state: ContextState): void {
    this.state = state;
    this.notice = '';
    this.chips.replaceChildren(...state.chips.map((chip) => chipElement(chip, () => this.host.post({ type: 'removeAttachment', id: chip.id }))));
    this.render();
  }

  /** Estimated tokens of the whole request with the draft as typed, calibrated for the model when it was measured. */
  total(draft = this.input.value): number {
    const flat = this.state.baseTokens + this.state.chips.reduce((sum, c) => sum + c.tokens, 0) + estimateTextTokens(draft);
    return Math.ceil(flat * (this.state.tokenScale ?? 1));
  }

  /**
   * False (and the warning shown) when the message would overflow the context window. With `waysOut`, a chat with
   * history goes to the host anyway: it holds the message back and offers to send only the newest turns, or a summary.
   */
  allowsSend(draft: string, waysOut = true): boolean {
    if (this.total(draft) <= this.state.window) return true;
    if (waysOut && this.host.hasHistory()) return true;
    this.render();
    this.host.notify(this.warning.textContent ?? 'The message is too large for the model.');
    return false;
  }

  private say(text: string): void {
    this.notice = text;
    this.render();
    this.host.notify(text);
  }

  private render(): void {
    const total = this.total();
    const { window } = this.state;
    const over = total - window;
    this.meter.textContent = `≈${formatTokens(total)} / ${formatTokens(window)} tokens`;
    this.meter.title = this.state.windowSource === 'model' ? "Estimated tokens of the request against the model's context window (from the gateway's model list)" : 'Estimated tokens of the request against the context window set in modelGateway.chat.contextWindow';
    this.meter.classList.toggle('over', over > 0);
    const messages: Array<Node | string> = [];
    for (const text of [this.state.warning, this.notice]) if (text) messages.push(el('p', { text }));
    const overflow = this.state.overflow;
    const canTrim = this.state.chips.length > 0 && (!overflow || overflow.action === 'send');
    if (overflow) {
      messages.push(...overflowChoices(overflow, (choice, text) => this.host.resolveOverflow(choice, text), (choice) => this.takeInput(choice)));
      if (canTrim) messages.push(textButton('fold', 'Trim Largest Attachment', () => this.host.post({ type: 'trimContext' })));
    } else if (over > 0) {
      const history = this.host.hasHistory();
      const ways = canTrim ? 'trim the largest attachment, remove one, or shorten the message' : history ? 'shorten the message' : 'shorten the message or start a new chat';
      const more = history ? `; or press Send to choose between sending only the newest turns that fit and branching a new chat from a summary.` : '.';
      messages.push(el('p', { text: `This message would overflow the model's context window by about ${formatTokens(over)} tokens (≈${formatTokens(total)} of ${formatTokens(window)}). Nothing is cut without you: ${ways}${more}` }));
      if (canTrim) messages.push(textButton('fold', 'Trim Largest Attachment', () => this.host.post({ type: 'trimContext' })));
    }
    this.warning.replaceChildren(...messages);
    this.warning.hidden = messages.length === 0;
  }

  /** The input's text for a way out that sends it (emptied: the host gives it back if nothing was sent). */
  private takeInput(choice: string): string {
    const text = this.input.value;
    if (choice === 'newest') {
      this.input.value = '';
      this.input.dispatchEvent(new Event('input'));
    }
    return text;
  }

  // ---- # completion ---------------------------------------------------------------------------------------

  private updateMenu(): void {
    const query = hashQuery(this.input.value, this.input.selectionStart ?? this.input.value.length);
    this.menuItems = query ? HASH_ITEMS.filter((item) => item.word.startsWith(query.query)) : [];
    if (this.menuItems.length === 0) return this.hideMenu();
    this.menuIndex = Math.min(this.menuIndex, this.menuItems.length - 1);
    this.menu.replaceChildren(
      ...this.menuItems.map((item, i) => {
        const option = el('li', { class: 'hash-item', text: `#${item.word} — ${item.label}`, attrs: { role: 'option', 'aria-selected': String(i === this.menuIndex), 'data-source': item.source } });
        option.addEventListener('mousedown', (event) => {
          event.preventDefault();
          this.pick(item.source);
        });
        return option;
      }),
    );
    this.menu.hidden = false;
  }

  private hideMenu(): void {
    this.menu.hidden = true;
    this.menuItems = [];
    this.menuIndex = 0;
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (this.menu.hidden || this.menuItems.length === 0 || event.isComposing) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.menuIndex = (this.menuIndex + step + this.menuItems.length) % this.menuItems.length;
      this.updateMenu();
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      this.pick(this.menuItems[this.menuIndex].source);
    } else if (event.key === 'Escape') {
      this.hideMenu();
    } else return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }

  /** Removes the typed `#word` and asks the host for that context. */
  private pick(source: ContextSource): void {
    const caret = this.input.selectionStart ?? this.input.value.length;
    const query = hashQuery(this.input.value, caret);
    if (query) {
      this.input.value = this.input.value.slice(0, query.start) + this.input.value.slice(caret);
      this.input.setSelectionRange(query.start, query.start);
    }
    this.hideMenu();
    this.host.post({ type: 'addContext', source });
  }

  // ---- paste and drop -------------------------------------------------------------------------------------

  private onPaste(event: ClipboardEvent): void {
    const images = [...(event.clipboardData?.files ?? [])].filter((f) => f.type.startsWith('image/'));
    if (images.length === 0) return;
    event.preventDefault();
    for (const file of images) void this.attachImage(file);
  }

  private onDrop(event: DragEvent): void {
    const transfer = event.dataTransfer;
    if (!transfer) return;
    event.preventDefault();
    const images = [...transfer.files].filter((f) => f.type.startsWith('image/'));
    for (const file of images) void this.attachImage(file);
    if (images.length > 0) return;
    const list = transfer.getData('application/vnd.code.uri-list') || transfer.getData('text/uri-list');
    const uris = list.split(/\r?\n/).map((u) => u.trim()).filter((u) => u !== '' && !u.startsWith('#')).slice(0, 50);
    if (uris.length > 0) this.host.post({ type: 'dropUris', uris });
    else if (transfer.files.length > 0) this.say('Hold Shift while dropping files from the Explorer to attach them.');
  }

  private async attachImage(file: File): Promise<void> {
    if (!isImageType(file.type)) {
      this.say(`${file.name || 'The image'} is not a PNG, JPEG, WebP or GIF image; it was not attached.`);
      return;
    }
    if (file.size > ATTACHMENT_LIMITS.imageBytes) {
      this.say(`${file.name || 'The image'} is ${(file.size / 1024 / 1024).toFixed(1)} MB; images up to ${ATTACHMENT_LIMITS.imageBytes / 1024 / 1024} MB can be attached.`);
      return;
    }
    const data = await base64Of(file);
    this.host.post({ type: 'attachImage', name: file.name || `pasted.${file.type.slice(6)}`, mimeType: file.type as ImageType, data });
  }
}

function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The image could not be read.'));
    reader.readAsDataURL(file);
  });
}
