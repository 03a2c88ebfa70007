// The context of one chat's next message: what is attached (the tray), what it costs against the model's context
// window, and the webview's requests to change it. Sending goes through here so a message that would overflow is
// held back with a warning (the user trims or removes; nothing is cut silently). Pure: the editor side (reading
// editors and files, asking the user) is the injected ContextSources.
import { chipOf, estimateTextTokens, type Attachment, type ImageType } from '../../chatProtocol/attachments';
import type { ContextSource, ContextState } from '../../chatProtocol/messages';
import { Emitter, type Disposable, type Event } from '../../util/events';
import type { ChatController } from './chatController';
import { ContextTray } from './context/contextTray';
import { checkImage } from './context/images';
import { budgetOf, planTrim } from './context/trim';
import { conversationTokens } from './request';

/** Where attachments come from; implemented by the editor adapter (workspaceContextProvider.ts). */
export interface ContextSources {
  /** Attachments from a source, after any question the user must answer (which file, a secrets file). */
  collect(source: ContextSource): Promise<Attachment[]>;
  /** Files dropped on the input. */
  fromUris(uris: readonly string[]): Promise<Attachment[]>;
  /** Tells the user something went wrong (a refused file or image). */
  warn(message: string): void;
}

export interface ContextWindow {
  tokens: number;
  source: 'model' | 'setting';
}

export interface ChatContextDeps {
  sources: ContextSources;
  /** The context window of a model: the model list's, else the setting. */
  windowFor(model: string): ContextWindow;
  newId(): string;
}

export class ChatContext implements Disposable {
  readonly tray = new ContextTray();
  private warning = '';
  private readonly changed = new Emitter<ContextState>();
  /** Fires with the new state whenever the attachments, the conversation or the model change. */
  readonly onDidChange: Event<ContextState> = this.changed.event;
  private readonly subscriptions: Disposable[];

  constructor(
    private readonly controller: ChatController,
    private readonly deps: ChatContextDeps,
  ) {
    this.subscriptions = [
      this.tray,
      this.tray.onDidChange(() => this.update()),
      // After the chat's own messages (a turn added or removed is shown before the new total), once per burst.
      controller.onEvent((event) => {
        if (event.type !== 'delta' && event.type !== 'title') this.updateSoon();
      }),
    ];
  }

  get state(): ContextState {
    const session = this.controller.session;
    const window = this.deps.windowFor(session.settings.model);
    return {
      chips: this.tray.attachments.map(chipOf),
      baseTokens: conversationTokens(session.turns, session.settings),
      window: window.tokens,
      windowSource: window.source,
      warning: this.warning,
    };
  }

  async add(source: ContextSource): Promise<void> {
    this.addAll(await this.deps.sources.collect(source));
  }

  async addUris(uris: readonly string[]): Promise<void> {
    this.addAll(await this.deps.sources.fromUris(uris));
  }

  /** An image from the webview: its type is read from the bytes, not taken from the message. */
  addImage(name: string, data: string): void {
    const bytes = Buffer.from(data, 'base64');
    const verdict = checkImage(name, bytes);
    if (!verdict.ok) return this.deps.sources.warn(verdict.reason);
    this.addAll([{ kind: 'image', id: this.deps.newId(), name, mimeType: verdict.mimeType satisfies ImageType, data }]);
  }

  remove(id: string): void {
    this.tray.remove(id);
  }

  /** Cuts the largest attachment so the message fits (the user asked for it). */
  trim(draftTokens = 0): void {
    const budget = this.budget(draftTokens);
    const plan = planTrim(this.tray.attachments, budget.overBy);
    this.warning = '';
    this.tray.apply(plan);
    if (plan.kind === 'none') this.update();
  }

  /**
   * Sends the message with the attachments, unless it would overflow the context window: then nothing is sent, the
   * warning says why, and false is returned (the caller gives the text back to the input).
   */
  send(text: string): boolean {
    if (this.controller.busy || text.trim() === '') return false;
    const budget = this.budget(estimateTextTokens(text));
    if (budget.overBy > 0) {
      this.warning = `Not sent: the message would overflow the context window of ${this.controller.session.settings.model || 'the model'} (≈${budget.total.toLocaleString('en-US')} of ${budget.window.toLocaleString('en-US')} tokens). Trim or remove an attachment, or shorten the message.`;
      this.update();
      return false;
    }
    this.warning = '';
    return this.controller.send(text, this.tray.take());
  }

  private budget(draftTokens: number) {
    const state = this.state;
    return budgetOf(state.baseTokens, this.tray.attachments, state.window, draftTokens);
  }

  private addAll(attachments: readonly Attachment[]): void {
    let full = false;
    for (const attachment of attachments) full ||= this.tray.add(attachment) === 'full';
    if (full) this.deps.sources.warn('A message can carry at most 50 attachments; the rest were not attached.');
  }

  private update(): void {
    this.changed.fire(this.state);
  }

  private updatePending = false;

  private updateSoon(): void {
    if (this.updatePending) return;
    this.updatePending = true;
    queueMicrotask(() => {
      this.updatePending = false;
      if (!this.disposed) this.update();
    });
  }

  private disposed = false;

  dispose(): void {
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}
