// The ways out of a chat that no longer fits the model's context window, shown in the context bar when the host held
// a message, Regenerate or Edit and resend back: send only the newest turns that fit, or branch a new chat from a
// summary. Each button says what it does; nothing is cut without the user's click.
import type { HistoryOverflow, OverflowChoice } from '../../chatProtocol/messages';
import { oldestTurnsText } from '../../chatProtocol/session';
import { el, textButton } from './dom';

const VERBS: Record<HistoryOverflow['action'], string> = { send: 'Send', regenerate: 'Regenerate', edit: 'Resend' };

/** "Send Without the 12 Oldest Turns". */
export function newestLabel(overflow: HistoryOverflow): string {
  const oldest = oldestTurnsText(overflow.omittedTurns).replace(/^the /, '').replace(/\b[a-z]/g, (c) => c.toUpperCase());
  return `${VERBS[overflow.action]} Without the ${oldest}`;
}

/** The explanations and buttons for an overflow; `take` returns the input's text (and empties it) when the choice uses it. */
export function overflowChoices(overflow: HistoryOverflow, resolve: (choice: OverflowChoice, text: string) => void, take: (choice: OverflowChoice) => string): Array<Node | string> {
  const choose = (choice: OverflowChoice) => () => resolve(choice, overflow.action === 'send' ? take(choice) : '');
  const parts: Array<Node | string> = [];
  if (overflow.omittedTurns > 0) {
    const oldest = oldestTurnsText(overflow.omittedTurns);
    parts.push(
      el('p', { text: `${newestLabel(overflow)}: the model sees only the newest turns that fit; ${oldest} ${overflow.omittedTurns === 1 ? 'is' : 'are'} not sent, and the reply says so.` }),
    );
  }
  if (overflow.canSummarize) {
    parts.push(el('p', { text: 'Branch with a Summary: the chat model summarizes this chat, then a new chat opens with the summary in its input for you to read and edit. Nothing is sent there until you send it.' }));
  }
  const buttons = el('div', { class: 'overflow-choices', attrs: { role: 'group', 'aria-label': 'Ways out' } });
  if (overflow.omittedTurns > 0) buttons.append(textButton('fold-up', newestLabel(overflow), choose('newest'), 'primary'));
  if (overflow.canSummarize) buttons.append(textButton('git-branch', 'Branch with a Summary…', choose('summary')));
  buttons.append(textButton('close', 'Cancel', choose('cancel')));
  parts.push(buttons);
  return parts;
}
