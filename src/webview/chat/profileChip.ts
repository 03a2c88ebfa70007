// The chat's profile in its header ("Work"): which gateway and key this chat's requests go with. A button: it asks
// the host for Change Chat Profile…, which is the only way a chat moves to another profile (the page cannot set it).
// Hidden while Default is the only profile.
import type { WebviewMessage } from '../../chatProtocol/messages';
import { el, icon } from './dom';

export class ProfileChip {
  private readonly label = el('span', { class: 'chip-label' });
  readonly root = el('button', { class: 'profile-chip', hidden: true, attrs: { type: 'button' } }, icon('account'), this.label);

  constructor(post: (message: WebviewMessage) => void) {
    this.root.addEventListener('click', () => post({ type: 'changeProfile' }));
  }

  set(name: string): void {
    this.root.hidden = name === '';
    this.label.textContent = name;
    const says = `This chat runs under the profile "${name}" (its gateway and key). Change Chat Profile…`;
    this.root.title = says;
    this.root.setAttribute('aria-label', says);
  }
}
