// The context of one chat's next message: what is attached (the tray), what it costs against the model's context
// window, and the webview's requests to change it. Sending, Regenerate and Edit and resend go through here so a
// request that would overflow is held back with the ways out (trim an attachment, send only the newest turns that
// fit, or branch a new chat from a summary): nothing is cut silently. Pure: the editor side (reading editors and
// files, asking the user, the summary) is injected.
import { chipOf, estimateTextTokens, type Attachment, type AudioAttachment, type ImageType } from '../../chatProtocol/attachments';
import type { ContextSource, ContextState, HistoryOverflow, OverflowChoice } from '../../chatProtocol/messages';
import type { Turn, UserTurn } from '../../chatProtocol/session';
import { Emitter, type Disposable, type Event } from '../../util/events';
import type { ChatController } from './chatController';
import { ContextTray } from './context/contextTray';
import { lineCount } from './context/fileCheck';
import { checkImage } from './context/images';
import { fitHistory, type HistoryFit } from './historyFit';
import { budgetOf, planTrim } from './context/trim';
import { conversationTokens, turnTokens } from './request';

/** Where attachments come from; implemented by the editor adapter (workspaceContextProvider.ts). */
export interface ContextSources {
  /** Attachments from a source, after any question the user must answer (which file, a secrets file). */
  collect(source: ContextSource): Promise<Attachment[]>;
  /**
   * Files dropped on the input. The webview names them, so they prove no act of the user: a file outside the
   * workspace is read only after the user's yes in a host dialog.
   */
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
  /** What a model's flat estimates (characters ÷ 4) are multiplied by, as measured from its reported usage (1: not yet). */
  tokenScale?(model: string): number;
  newId(): string;
  /** Whether a model can see images, as its model list entry says (undefined: it says nothing, and nothing is warned). */
  seesImages?(model: string): boolean | undefined;
  /**
   * Branches a new chat that starts from a summary of this one, shown for the user to read and edit before anything
   * is sent there; `pendingText` is the message that was held back (it follows the summary).
   */
  summarize?(pendingText: string): Promise<void>;
}

/** What was held back because the chat does not fit, to be done once the user picks a way out. */
type HeldAction = { kind: 'send'; text: string } | { kind: 'regenerate' } | { kind: 'edit'; turnId: string; text: string } | { kind: 'withoutImages'; text: string };

export class ChatContext implements Disposable {
  readonly tray = new ContextTray();
  private warning = '';
  /** The model and images last warned about: sending them again is the user's yes. */
  private imagesWarned: string | undefined;
  private held: { action: HeldAction; overflow: HistoryOverflow } | undefined;
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
      this.tray.onDidChange(() => {
        this.release();
        this.update();
      }),
      // After the chat's own messages (a turn added or removed is shown before the new total), once per burst.
      controller.onEvent((event) => {
        if (event.type === 'delta' || event.type === 'title') return;
        // What was held back was measured against turns that changed: it is asked again.
        if (event.type === 'turnAdded' || event.type === 'turnsRemoved' || event.type === 'reloaded') this.release();
        this.updateSoon();
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
      ...(this.scale(session.settings.model) !== 1 && { tokenScale: this.scale(session.settings.model) }),
      warning: this.warning,
      ...(this.held && { overflow: this.held.overflow }),
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

  /** The audio files attached, taken out (for /transcribe). */
  takeAudio(): AudioAttachment[] {
    return this.tray.take((a) => a.kind === 'audio') as AudioAttachment[];
  }

  /** A transcript as a text attachment of the next message, named after its audio file. */
  addTranscript(name: string, text: string): void {
    const lines = lineCount(text);
    this.addAll([{ kind: 'text', id: this.deps.newId(), source: 'file', path: `${name} (transcript)`, language: '', startLine: 1, endLine: lines, totalLines: lines, text }]);
  }

  /** Gives back an audio file (one that was not transcribed). */
  restoreAudio(audio: AudioAttachment): void {
    this.addAll([audio]);
  }

  remove(id: string): void {
    this.tray.remove(id);
  }

  /**
   * Cuts the largest attachment so the message fits (the user asked for it). The page names no draft: a message
   * held back is what will be sent, so its words must fit too, or the next send is held again.
   */
  trim(draftTokens?: number): void {
    const held = this.held?.action;
    const budget = this.budget(draftTokens ?? (held && held.kind !== 'regenerate' ? estimateTextTokens(held.text) : 0));
    const plan = planTrim(this.tray.attachments, budget.overBy);
    this.warning = '';
    this.tray.apply(plan);
    if (plan.kind === 'none') this.update();
  }

  /**
   * Sends the message with the attachments, unless it would overflow the context window: then nothing is sent, the
   * warning says why and what can be done, and false is returned (the caller gives the text back to the input).
   */
  send(text: string): boolean {
    // Asked first: a message refused while a reply runs is neither held back nor releases one that is.
    if (this.controller.refusal || text.trim() === '') return false;
    // An audio file goes to no chat model: /transcribe turns it into text first.
    if (this.tray.attachments.some((a) => a.kind === 'audio')) {
      this.deps.sources.warn('Not sent: an audio file is attached. Type /transcribe to put its transcript into the context, or remove it.');
      return false;
    }
    const budget = this.budget(estimateTextTokens(text));
    if (budget.overBy > 0) return this.hold({ kind: 'send', text }, fitHistory([...this.controller.session.turns, this.question(text, this.tray.attachments)], this.controller.session.settings, budget.window));
    if (this.warnBlind()) return false;
    this.release();
    return this.controller.send(text, this.tray.take());
  }

  /** Regenerate (and Retry): held back like a message when the conversation it would send does not fit. */
  async regenerate(): Promise<boolean> {
    const turns = this.controller.session.turns;
    let end = turns.length;
    while (end > 0 && turns[end - 1].role === 'assistant') end--;
    const fit = this.fit(turns.slice(0, end));
    if (end > 0 && (fit.fromIndex > 0 || !fit.fits)) return this.hold({ kind: 'regenerate' }, fit);
    this.release();
    return this.controller.regenerate();
  }

  /** Edit and resend: held back like a message when the edited conversation does not fit. */
  async editAndResend(turnId: string, text: string): Promise<boolean> {
    const turns = this.controller.session.turns;
    const index = turns.findIndex((t) => t.id === turnId && t.role === 'user');
    if (index >= 0 && text.trim() !== '') {
      const fit = this.fit([...turns.slice(0, index), this.question(text, (turns[index] as UserTurn).attachments ?? [])]);
      if (fit.fromIndex > 0 || !fit.fits) return this.hold({ kind: 'edit', turnId, text }, fit);
    }
    this.release();
    return this.controller.editAndResend(turnId, text);
  }

  /** Resend Without Image (after a model refused images): held back like Edit and resend when it does not fit. */
  async resendWithoutImages(): Promise<boolean> {
    const turns = this.controller.session.turns;
    const index = turns.findLastIndex((t) => t.role === 'user');
    const last = turns[index] as UserTurn | undefined;
    if (last) {
      const fit = this.fit([...turns.slice(0, index), this.question(last.content, (last.attachments ?? []).filter((a) => a.kind !== 'image'))]);
      if (fit.fromIndex > 0 || !fit.fits) return this.hold({ kind: 'withoutImages', text: last.content }, fit);
    }
    this.release();
    return this.controller.resendWithoutImages();
  }

  /**
   * The user's way out of what was held back: send it with only the newest turns that fit, branch a new chat from a
   * summary, or drop it. `text` is the input's text now (a held message is sent as it reads now). False when nothing
   * was sent (the caller gives `text` back to the input).
   */
  async resolveOverflow(choice: OverflowChoice, text = ''): Promise<boolean> {
    const held = this.held;
    this.release();
    if (!held || choice === 'cancel') return false;
    const action: HeldAction = held.action.kind === 'send' && text.trim() !== '' ? { kind: 'send', text } : held.action;
    if (choice === 'summary') {
      const pending = action.kind === 'regenerate' ? '' : action.text;
      await this.deps.summarize?.(pending);
      return false;
    }
    const window = this.flatWindow(this.controller.session.settings.model);
    if (action.kind === 'regenerate') return this.controller.regenerate({ fitWindow: window });
    if (action.kind === 'edit') return this.controller.editAndResend(action.turnId, action.text, { fitWindow: window });
    if (action.kind === 'withoutImages') return this.controller.resendWithoutImages({ fitWindow: window });
    // The message must fit on its own, attachments and all (else it is held again, saying so).
    const fit = fitHistory([...this.controller.session.turns, this.question(action.text, this.tray.attachments)], this.controller.session.settings, window);
    if (!fit.fits) return this.hold(action, fit);
    return this.controller.send(action.text, this.tray.take(), { fitWindow: window });
  }

  /** What the next message (with the attachments) would cost `model`, which takes the whole chat (Compare). */
  fitFor(text: string, model: string): HistoryFit {
    const session = this.controller.session;
    return fitHistory([...session.turns, this.question(text, this.tray.attachments)], session.settings, this.flatWindow(model));
  }

  private fit(turns: readonly Turn[]): HistoryFit {
    const session = this.controller.session;
    return fitHistory(turns, session.settings, this.flatWindow(session.settings.model));
  }

  private scale(model: string): number {
    const scale = this.deps.tokenScale?.(model) ?? 1;
    return Number.isFinite(scale) && scale > 0 ? scale : 1;
  }

  /**
   * The model's window in flat-estimate units: the checks compare the flat estimates with it, which is the same as
   * comparing the calibrated estimates (what the meter shows) with the window itself.
   */
  private flatWindow(model: string): number {
    return Math.max(1, Math.floor(this.deps.windowFor(model).tokens / this.scale(model)));
  }

  /** The question being asked, as the turn it would become. */
  private question(text: string, attachments: readonly Attachment[]): UserTurn {
    return { id: 'pending', role: 'user', createdAt: 0, content: text, attachments: [...attachments] };
  }

  /**
   * Warns, once, before images go to a model whose list entry says it cannot see them (the gateway would refuse
   * them or the model would answer without them); true when it warned and nothing was sent. Sending the same images
   * to the same model again sends them.
   */
  private warnBlind(): boolean {
    const model = this.controller.session.settings.model;
    const images = this.tray.attachments.filter((a) => a.kind === 'image');
    if (images.length === 0 || this.deps.seesImages?.(model) !== false) return false;
    const key = JSON.stringify([model, images.map((a) => a.id)]);
    if (this.imagesWarned === key) return false;
    this.imagesWarned = key;
    this.warning = `Not sent: ${model} cannot see images (its entry in the gateway's model list takes no image input). Send again to send ${images.length === 1 ? 'the image' : 'the images'} anyway, remove ${images.length === 1 ? 'it' : 'them'}, or pick a model that can see.`;
    this.update();
    return true;
  }

  /** Holds an action back, saying why and which ways out there are; returns false (nothing was sent). */
  private hold(action: HeldAction, fit: HistoryFit): false {
    const model = this.controller.session.settings.model || 'the model';
    const what = action.kind === 'send' ? 'Not sent' : action.kind === 'regenerate' ? 'Not regenerated' : 'Not resent';
    const shown = action.kind === 'withoutImages' ? 'edit' : action.kind;
    const scale = this.scale(this.controller.session.settings.model);
    const [whole, window] = [Math.ceil(fit.whole * scale), this.deps.windowFor(this.controller.session.settings.model).tokens];
    const size = `≈${whole.toLocaleString('en-US')} of ${window.toLocaleString('en-US')} tokens`;
    const hasContext = action.kind === 'send' && this.tray.attachments.length > 0;
    // Only ways out that exist: no advice to trim attachments when there are none.
    const alone = !fit.fits ? (hasContext ? ' Even the message alone does not fit: trim or remove an attachment, or shorten it.' : ' Even the message alone does not fit: shorten it.') : '';
    const earlier = this.controller.session.turns.some((t) => turnTokens(t) > 0);
    this.warning = `${what}: the ${earlier ? 'chat' : 'message'} would overflow the context window of ${model} (${size}).${alone}`;
    this.held = { action, overflow: { action: shown, omittedTurns: fit.fits ? fit.omittedTurns : 0, canSummarize: earlier && this.deps.summarize !== undefined, total: whole, window } };
    this.update();
    return false;
  }

  /** Forgets what was held back (the user chose, or what it was measured against changed). */
  private release(): void {
    if (!this.held && this.warning === '') return;
    this.held = undefined;
    this.warning = '';
    this.updateSoon();
  }

  private budget(draftTokens: number) {
    return budgetOf(this.state.baseTokens, this.tray.attachments, this.flatWindow(this.controller.session.settings.model), draftTokens);
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
