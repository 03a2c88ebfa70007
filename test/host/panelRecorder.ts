// What a chat panel posts to its page, recorded in a host test that drives the panel through its message handler.
import type { ChatPanel } from '../../src/chat/vscode/chatPanel';
import type { HostMessage, TurnFinish, WebviewMessage } from '../../src/chatProtocol/messages';
import { until } from './helpers';

export class PanelRecorder {
  readonly posted: HostMessage[] = [];
  constructor(readonly panel: ChatPanel) {
    panel.onDidPost((m) => this.posted.push(m));
  }

  /** A message from the page, as the user's action would send it. */
  send(message: WebviewMessage): Promise<void> {
    return this.panel.handleMessage(message);
  }

  /** The last message of a type the panel posted. */
  last<T extends HostMessage['type']>(type: T): Extract<HostMessage, { type: T }> | undefined {
    return [...this.posted].reverse().find((m): m is Extract<HostMessage, { type: T }> => m.type === type);
  }

  /** How the first reply finished that was posted after `from` messages. */
  async finish(from: number): Promise<TurnFinish> {
    const message = await until(() => this.posted.slice(from).find((m) => m.type === 'turnFinished'), 'the reply to finish', 15_000);
    if (message.type !== 'turnFinished') throw new Error('not a finish');
    return message.finish;
  }
}
