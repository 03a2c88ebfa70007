// The instructions chip above the chat input: which of the workspace's instruction files go with this chat's messages
// ("Instructions: AGENTS.md (420 tokens)"), each opening its file, and a switch that turns them off (or on) for this
// chat. Hidden when the workspace has none. Nothing loads silently: what is sent is always shown here.
import type { InstructionsState, WebviewMessage } from '../../chatProtocol/messages';
import { el, icon, iconButton } from './dom';

export class InstructionsChip {
  readonly root = el('div', { class: 'instructions-bar', hidden: true, attrs: { role: 'group', 'aria-label': 'Instruction files' } });

  constructor(private readonly post: (message: WebviewMessage) => void) {}

  update(state: InstructionsState): void {
    const found = state.files.length > 0 || state.problems.length > 0;
    this.root.hidden = !found;
    if (!found) return this.root.replaceChildren();
    const off = !state.enabled;
    this.root.classList.toggle('off', off);
    const why = state.restricted ? 'Restricted Mode: instruction files are read only once you trust this workspace.' : off ? 'Off for this chat.' : 'Sent as system content with each message.';
    const chips = state.files.map((file, index) => {
      const chip = el(
        'button',
        { class: 'chip instruction-chip', attrs: { type: 'button', title: `Open ${file.label}. ${why}` } },
        icon('book'),
        el('span', { class: 'chip-label', text: `${file.label.split('/').pop()} (${file.tokens.toLocaleString('en-US')} tokens)` }),
      );
      chip.addEventListener('click', () => this.post({ type: 'instructionsAction', action: 'open', index }));
      return chip;
    });
    const problems = state.problems.length > 0 ? el('span', { class: 'instruction-problems', text: `${state.problems.length} not read`, attrs: { title: state.problems.join('\n') } }) : null;
    const label = off ? (state.restricted ? 'Instructions (off, Restricted Mode):' : 'Instructions (off):') : 'Instructions:';
    const toggle = iconButton(off ? 'circle-large-outline' : 'pass-filled', off ? 'Send the instructions with this chat' : 'Stop sending the instructions with this chat', () => this.post({ type: 'instructionsAction', action: 'toggle', index: 0 }), 'instructions-toggle');
    toggle.setAttribute('aria-pressed', String(!off));
    this.root.replaceChildren(toggle, el('span', { class: 'instructions-label', text: label, attrs: { title: why } }), ...chips, ...(problems ? [problems] : []));
  }
}
