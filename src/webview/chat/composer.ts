// The input box: Enter sends, Shift+Enter adds a line, Escape stops a running reply (or cancels an edit), Up in an
// empty box edits the last message.
import { el, icon, textButton } from './dom';
import { SlashMenu } from './slashMenu';
import type { PromptCommand } from '../../chatProtocol/instructions';

export interface ComposerHandlers {
  /** False keeps the text in the box (the message was held back). */
  send(text: string): boolean;
  resend(turnId: string, text: string): void;
  stop(): void;
  /** Starts editing the last user message; false when there is none. */
  editLast(): boolean;
  /** Says something to screen readers. */
  notify(text: string): void;
  /** The text in the box changed (kept in the webview's state, so a page rebuilt for a new media origin keeps it). */
  draftChanged?(text: string): void;
}

export class Composer {
  readonly root: HTMLElement;
  private readonly input = el('textarea', {
    class: 'composer-input',
    attrs: { rows: '3', 'aria-label': 'Message', placeholder: 'Ask the model… (Enter to send, Shift+Enter for a new line, / for commands)', 'aria-describedby': 'composer-help' },
  });
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly editBanner = el('div', { class: 'edit-banner', hidden: true, attrs: { role: 'status' } });
  private readonly problem = el('div', { class: 'composer-problem', hidden: true, attrs: { role: 'alert' } });
  private readonly slashMenu: SlashMenu;
  private editing: string | undefined;
  private busy = false;

  constructor(private readonly handlers: ComposerHandlers) {
    this.sendButton = textButton('send', 'Send', () => this.submit(), 'primary send-button');
    this.stopButton = textButton('debug-stop', 'Stop', () => handlers.stop(), 'stop-button');
    this.stopButton.hidden = true;
    this.stopButton.title = 'Stop the reply (Escape)';
    const help = el('div', { class: 'sr-only', attrs: { id: 'composer-help' }, text: 'Enter sends. Shift+Enter adds a new line. Escape stops a running reply. Up arrow in an empty box edits your last message.' });
    this.slashMenu = new SlashMenu(this.input);
    this.root = el('footer', { class: 'composer' }, this.editBanner, this.slashMenu.root, this.problem, el('div', { class: 'composer-row' }, this.input, el('div', { class: 'composer-buttons' }, this.sendButton, this.stopButton)), help);
    this.input.addEventListener('keydown', (event) => this.onKeyDown(event));
    this.input.addEventListener('input', () => {
      this.showProblem(undefined);
      if (!this.editing) handlers.draftChanged?.(this.input.value);
    });
  }

  setPrompts(prompts: readonly PromptCommand[]): void {
    this.slashMenu.setPrompts(prompts);
  }

  get textArea(): HTMLTextAreaElement {
    return this.input;
  }

  get isEditing(): boolean {
    return this.editing !== undefined;
  }

  focus(): void {
    this.input.focus();
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.stopButton.hidden = !busy;
    this.sendButton.hidden = busy && !this.editing;
  }

  startEdit(turnId: string, text: string): void {
    this.editing = turnId;
    this.input.value = text;
    this.editBanner.replaceChildren(icon('edit'), el('span', { text: 'Editing your message: Enter resends from here, Escape cancels.' }), textButton('close', 'Cancel', () => this.cancelEdit()));
    this.editBanner.hidden = false;
    this.setBusy(this.busy);
    this.focus();
    this.input.setSelectionRange(text.length, text.length);
  }

  cancelEdit(): void {
    if (!this.editing) return;
    this.editing = undefined;
    this.editBanner.hidden = true;
    this.input.value = '';
    this.setBusy(this.busy);
    this.handlers.notify('Edit cancelled.');
  }

  /** Says under the input why the message was not sent (it stays in the box). */
  showProblem(text: string | undefined): void {
    this.problem.hidden = !text;
    this.problem.textContent = text ?? '';
  }

  /** Adds text (from "Ask About Selection") to what is already typed; `focus` false leaves the focus where it is. */
  appendDraft(text: string, focus = true): void {
    const current = this.input.value;
    this.input.value = current && !current.endsWith('\n') ? `${current}\n\n${text}` : current + text;
    if (focus) this.focus();
    this.input.setSelectionRange(this.input.value.length, this.input.value.length);
    this.input.scrollTop = this.input.scrollHeight;
    this.handlers.draftChanged?.(this.input.value);
  }

  private submit(): void {
    const text = this.input.value;
    if (text.trim() === '') return;
    if (this.editing) {
      this.handlers.resend(this.editing, text);
      this.editing = undefined;
      this.editBanner.hidden = true;
    } else if (this.busy) {
      this.handlers.notify('A reply is still running. Press Escape to stop it first.');
      return;
    } else if (!this.handlers.send(text)) {
      return;
    }
    this.input.value = '';
    this.handlers.draftChanged?.('');
    this.setBusy(this.busy);
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.isComposing) return;
    if (this.slashMenu.handleKey(event)) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      this.submit();
    } else if (event.key === 'Escape') {
      if (this.editing) this.cancelEdit();
      else if (this.busy) this.handlers.stop();
      else return;
      event.preventDefault();
      event.stopPropagation();
    } else if (event.key === 'ArrowUp' && this.input.value === '' && !this.editing) {
      if (this.handlers.editLast()) event.preventDefault();
    }
  }
}
