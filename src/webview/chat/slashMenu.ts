// The slash menu under the chat input: typing "/" lists the commands; Up/Down choose, Enter or Tab complete, Escape
// closes. A combobox with a listbox popup (ARIA 1.2): focus stays in the input, the active option is announced
// through aria-activedescendant.
import { slashCompletions } from '../../chatProtocol/slash';
import { promptCompletions, type PromptCommand } from '../../chatProtocol/instructions';
import { el } from './dom';

let menus = 0;

/** A built-in command, or a prompt file's (sent as a message: choosing it puts only `/name ` into the input). */
interface MenuItem {
  name: string;
  argument: string;
  description: string;
}

export class SlashMenu {
  readonly root: HTMLElement;
  private readonly list: HTMLElement;
  private options: MenuItem[] = [];
  private prompts: readonly PromptCommand[] = [];
  private active = 0;
  private readonly id = `slash-menu-${++menus}`;

  constructor(private readonly input: HTMLTextAreaElement) {
    this.list = el('ul', { class: 'slash-menu', hidden: true, attrs: { id: this.id, role: 'listbox', 'aria-label': 'Commands' } });
    this.root = this.list;
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', this.id);
    input.setAttribute('aria-expanded', 'false');
    input.addEventListener('input', () => this.refresh());
    input.addEventListener('blur', () => this.close());
  }

  /** The workspace's prompt files, offered after the built-in commands. */
  setPrompts(prompts: readonly PromptCommand[]): void {
    this.prompts = prompts;
  }

  get open(): boolean {
    return !this.list.hidden;
  }

  /**
   * Handles a key while the menu is open; true when it was the menu's (the caller then stops it). Runs before the
   * composer's own keys, so Enter completes a command instead of sending.
   */
  handleKey(event: KeyboardEvent): boolean {
    if (!this.open || event.isComposing) return false;
    switch (event.key) {
      case 'ArrowDown':
        this.move(1);
        return true;
      case 'ArrowUp':
        this.move(-1);
        return true;
      case 'Enter':
      case 'Tab':
        if (event.shiftKey) return false;
        this.choose(this.options[this.active]);
        return true;
      case 'Escape':
        this.close();
        return true;
      default:
        return false;
    }
  }

  private refresh(): void {
    const prompts = promptCompletions(this.input.value, this.prompts).map((p) => ({ name: p.name, argument: '[text]', description: p.description }));
    const found: MenuItem[] = [...(slashCompletions(this.input.value) ?? []), ...prompts];
    if (found.length === 0) return this.close();
    this.options = found;
    this.active = Math.min(this.active, found.length - 1);
    this.render();
  }

  private render(): void {
    this.list.replaceChildren(
      ...this.options.map((command, index) => {
        const option = el(
          'li',
          { class: `slash-option${index === this.active ? ' active' : ''}`, attrs: { id: `${this.id}-${command.name}`, role: 'option', 'aria-selected': String(index === this.active) } },
          el('span', { class: 'slash-name', text: `/${command.name}` }),
          el('span', { class: 'slash-argument', text: command.argument ? ` ${command.argument}` : '' }),
          el('span', { class: 'slash-description', text: command.description }),
        );
        // mousedown, not click: the input must keep focus (a blur would close the menu first).
        option.addEventListener('mousedown', (event) => {
          event.preventDefault();
          this.choose(command);
        });
        return option;
      }),
    );
    this.list.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    this.input.setAttribute('aria-activedescendant', `${this.id}-${this.options[this.active].name}`);
  }

  private move(step: number): void {
    this.active = (this.active + step + this.options.length) % this.options.length;
    this.render();
  }

  private choose(command: MenuItem | undefined): void {
    if (!command) return;
    this.input.value = `/${command.name} `;
    this.input.setSelectionRange(this.input.value.length, this.input.value.length);
    this.close();
  }

  close(): void {
    this.list.hidden = true;
    this.active = 0;
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }
}
