// Shown when the chat view refuses a message from VS Code (one that does not match the protocol): the chat says
// so and offers to load the whole chat again, instead of staying blank or leaving a reply "streaming" forever.
import { el, icon, textButton } from './dom';

export class ProtocolErrorBanner {
  readonly root = el('div', { class: 'turn-error protocol-error', hidden: true, attrs: { role: 'alert' } });
  private readonly message = el('span');

  constructor(reload: () => void) {
    this.root.append(el('div', { class: 'error-message' }, icon('error'), this.message), el('div', { class: 'error-actions' }, textButton('refresh', 'Reload Chat', reload, 'primary')));
  }

  show(reason: string): void {
    this.message.textContent = `This chat could not show an update from VS Code (${reason}). Reload the chat to see it as it is saved.`;
    this.root.hidden = false;
  }

  hide(): void {
    this.root.hidden = true;
  }
}
