// The chat's reasoning effort, beside the model: "Default (send nothing)" or one of the levels the model offers (from
// the gateway's model list, else the user's setting; chatModelList.ts). A level chosen for another model that this
// one does not list stays shown, marked, so switching models never changes what is sent without the user seeing it.
import { el } from './dom';

export const DEFAULT_EFFORT_TEXT = 'Default (send nothing)';

export class EffortView {
  readonly root: HTMLSelectElement;
  private levels: readonly string[] = [];
  private chosen = '';

  constructor(onChange: () => void) {
    this.root = el('select', { class: 'effort-select', attrs: { 'aria-label': 'Reasoning effort', title: 'Reasoning effort sent with each message of this chat' } });
    this.root.addEventListener('change', () => {
      this.chosen = this.root.value;
      onChange();
    });
  }

  set(effort: string | undefined): void {
    this.chosen = effort ?? '';
    this.render();
  }

  setLevels(levels: readonly string[]): void {
    this.levels = levels;
    this.render();
  }

  /** The chosen level, or undefined for the default (nothing sent). */
  value(): string | undefined {
    return this.chosen === '' ? undefined : this.chosen;
  }

  private render(): void {
    const options = [el('option', { text: `Effort: ${DEFAULT_EFFORT_TEXT}`, attrs: { value: '' } })];
    for (const level of this.levels) options.push(el('option', { text: `Effort: ${level}`, attrs: { value: level } }));
    if (this.chosen !== '' && !this.levels.includes(this.chosen)) options.push(el('option', { text: `Effort: ${this.chosen} (not listed for this model)`, attrs: { value: this.chosen } }));
    this.root.replaceChildren(...options);
    this.root.value = this.chosen;
    this.root.hidden = this.levels.length === 0 && this.chosen === '';
  }
}
