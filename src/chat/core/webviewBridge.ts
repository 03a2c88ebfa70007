// Connects one chat controller to its webview: checks every message that arrives from the webview and carries it
// out, and turns the controller's events into protocol messages. Pure: the editor actions it needs are injected,
// so the same code runs under the real panel and in unit tests.
import type { Logger } from '../../util/logger';
import { safeExternalUrl } from '../../util/externalUrl';
import { CHAT_SHAPES, type ChatReplies, type ChatRequest, type CodeActionKind, type HostMessage, type MediaAudioMessage, type ModelsState, type TurnFinish, type WebviewMessage, type WireTurn, type WireTurnError } from '../../chatProtocol/messages';
import { ProtocolPort } from '../../chatProtocol/webviewProtocol';
import type { Clock } from '../../util/clock';
import { Emitter, type Disposable, type Event } from '../../util/events';
import type { ChatController } from './chatController';
import type { ChatEvent } from './chatEvent';
import type { ChatContext } from './chatContext';
import type { ChatCompare } from './chatCompare';
import type { ContextTray } from './context/contextTray';
import { RESEND_WITHOUT_IMAGES } from './imageRejection';
import { listedAction } from '../../ui/core/adviceActions';
import type { AssistantTurn, ChatSession, MediaTurn, Turn, TurnError } from '../../chatProtocol/session';
import { keepingProfile } from './chatProfile';
import { actionTitles, type WireMediaTurn } from '../../chatProtocol/mediaTurn';
import { chipOf } from '../../chatProtocol/attachments';
import type { CodeApply } from '../../chatProtocol/codeApply';
import type { InstructionsAction, InstructionsState } from '../../chatProtocol/instructions';
import { fenceInfoFor, type ApplyRequest } from './apply/applyTarget';

/** What the chat asks of the editor around it. */
export interface ChatWorkbench {
  copyText(text: string): Promise<void>;
  insertAtCursor(code: string): Promise<void>;
  openInNewFile(code: string, language: string): Promise<void>;
  /** Shows the block's change for review and applies what the user accepts; undefined when nothing was offered. */
  applyCode(request: ApplyRequest): Promise<Omit<CodeApply, 'at'> | undefined>;
  /** Only ever called with an http or https URL that passed `safeExternalUrl`. */
  openExternal(url: string): Promise<void>;
  runCommand(command: string, args: unknown[]): Promise<void>;
  exportSession(session: Readonly<ChatSession>): Promise<void>;
  newChat(): Promise<void>;
  refreshModels(): Promise<void>;
  /** Change Chat Profile… for this chat (by its session id). */
  changeProfile(sessionId: string): Promise<void>;
}


/** The chat's media hub (chat/hub/mediaHub.ts), as the bridge uses it. */
export interface BridgeMediaHub {
  /** `tray`: the next message's attachments; /image and /video take an attached image from it. */
  handleSend(text: string, tray?: Pick<ContextTray, 'attachments' | 'take'>): boolean;
  readAloud(turnId: string): void;
  action(turnId: string, action: WebviewMediaAction): Promise<void>;
  wire(turn: MediaTurn): WireMediaTurn;
}

/** The chat's instruction files (chat/vscode/instructionFiles.ts): the chip's open and on/off. */
export interface BridgeInstructions {
  action(action: InstructionsAction, index: number): Promise<void>;
}

type WebviewMediaAction = Extract<WebviewMessage, { type: 'mediaAction' }>['action'];

/** Without a hub, a media turn is shown as saved (no source: it shows as expired). */
const NO_HUB_WIRE = (turn: MediaTurn): WireMediaTurn => {
  const { entryId: _e, fileName: _f, jobKey: _j, contentType: _c, actions, ...rest } = turn;
  const titles = actionTitles(turn.state, actions);
  return titles ? { ...rest, actions: titles } : rest;
};

export function wireError(error: TurnError, now: number): WireTurnError {
  const wire: WireTurnError = { message: error.message, kind: error.kind, actions: error.actions.map((a) => a.title) };
  if (error.retryAt !== undefined && error.retryAt > now) wire.retryInMs = Math.round(error.retryAt - now);
  return wire;
}

export function wireTurn(turn: Turn, now: number, media: (turn: MediaTurn) => WireMediaTurn = NO_HUB_WIRE): WireTurn {
  if (turn.role === 'media') return media(turn);
  if (turn.role === 'newer') return { id: turn.id, role: 'newer', createdAt: turn.createdAt, kind: turn.kind, content: '' };
  if (turn.role === 'user') {
    const { attachments, ...rest } = turn;
    return attachments && attachments.length > 0 ? { ...rest, attachments: attachments.map(chipOf) } : rest;
  }
  const { error, toolCalls, ...rest } = turn;
  const wire: WireTurn = { ...rest, toolCalls: toolCalls.map((c) => ({ ...c })) };
  if (error) wire.error = wireError(error, now);
  return wire;
}

export function wireFinish(turn: AssistantTurn, now: number): TurnFinish {
  if (turn.status === 'streaming') throw new Error('A streaming turn has not finished');
  const finish: TurnFinish = { turnId: turn.id, status: turn.status, model: turn.model, finishReason: turn.finishReason, usage: turn.usage ? { ...turn.usage } : null };
  if (turn.error) finish.error = wireError(turn.error, now);
  if (turn.thoughtMs !== undefined) finish.thoughtMs = turn.thoughtMs;
  return finish;
}

export class ChatWebviewBridge implements Disposable {
  private readonly posted = new Emitter<HostMessage>();
  /** Every message sent to the webview (tests watch this). */
  readonly onDidPost: Event<HostMessage> = this.posted.event;
  private readonly received = new Emitter<WebviewMessage>();
  /** Every valid message that arrived from the webview. */
  readonly onDidReceive: Event<WebviewMessage> = this.received.event;
  private readonly loaded = new Emitter<void>();
  /** The page said `ready`: it loaded (again) and was sent the whole session. The one place `ready` is handled. */
  readonly onDidLoad: Event<void> = this.loaded.event;
  private loadedOnce = false;
  private live = false;
  private pendingDraft = '';
  private readonly subscription: Disposable;
  /** Checks every message both ways against the chat's protocol (messages.ts). */
  private readonly port: ProtocolPort<WebviewMessage, HostMessage>;

  constructor(
    private readonly controller: ChatController,
    private readonly workbench: ChatWorkbench,
    post: (message: HostMessage) => void,
    private readonly models: () => ModelsState,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** The next message's attachments (without it the chat sends text only), model comparison, and /image, /video, /speak. */
    features: { context?: ChatContext; compare?: ChatCompare; hub?: BridgeMediaHub; instructions?: BridgeInstructions } = {},
  ) {
    this.port = new ProtocolPort('Chat', CHAT_SHAPES, post, log);
    this.instructions = features.instructions;
    this.context = features.context;
    this.compare = features.compare;
    this.hub = features.hub;
    const subscriptions = [
      controller.onEvent((event) => this.forward(event)),
      this.context?.onDidChange((state) => this.send({ type: 'context', context: state })),
      this.compare?.onDidChange((state) => this.send({ type: 'compare', compare: state })),
    ];
    this.subscription = { dispose: () => subscriptions.forEach((s) => s?.dispose()) };
  }

  private readonly context: ChatContext | undefined;
  private readonly compare: ChatCompare | undefined;
  private readonly hub: BridgeMediaHub | undefined;
  private readonly instructions: BridgeInstructions | undefined;

  /** The webview went away (hidden or closed); nothing is posted until it is back. */
  /** Whether the page has loaded at least once (a page that never did will say `ready` itself). */
  get hasLoaded(): boolean {
    return this.loadedOnce;
  }

  markNotLive(): void {
    this.live = false;
  }

  /**
   * The panel is visible again. A webview that was recreated will say `ready`; one that was kept gets the whole
   * session now, since it missed what happened while hidden.
   */
  revive(): void {
    if (this.live) return;
    this.live = true;
    this.sendInit();
  }

  /**
   * Asked before a changed media turn is posted: true when the page was just rebuilt to allow a new media origin.
   * The rebuilt page says `ready` and gets the whole session, so the turn is not posted to the old page, whose CSP
   * would refuse its source.
   */
  pageRebuiltForMedia: () => boolean = () => false;

  /** Sends these media turns again, as they are now (their source changed without the turn changing). */
  resendMediaTurns(turnIds: readonly string[]): void {
    for (const turn of this.controller.session.turns) {
      if (turn.role === 'media' && turnIds.includes(turn.id)) this.send({ type: 'turnUpdated', turn: this.wireMedia(turn) });
    }
  }

  /** A piece of a /speak turn's audio as it arrives, or its end (a page not live misses it, and waits for the kept file). */
  postAudio(message: MediaAudioMessage): void {
    this.send(message);
  }

  postModels(models: ModelsState): void {
    this.send({ type: 'models', models });
  }

  postInstructions(instructions: InstructionsState): void {
    this.send({ type: 'instructions', instructions });
  }

  postProfile(name: string): void {
    this.send({ type: 'profile', name });
  }

  /** Puts text in the chat input (appended to what is there), now or as soon as the webview is ready. */
  postDraft(text: string): void {
    if (this.live) this.send({ type: 'draft', text });
    else this.pendingDraft += text;
  }

  /** Handles one raw message from the webview; malformed or unknown messages are logged and dropped. */
  async handle(raw: unknown): Promise<void> {
    const message = this.port.receive(raw);
    if (!message) return;
    this.received.fire(message);
    try {
      await this.dispatch(message);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.log.error(`Chat: ${message.type} failed: ${why}`);
      // A request always gets its answer, so the page never waits on one (it gives the text back to the input).
      if ('requestId' in message) this.send({ type: 'reply', requestId: message.requestId, error: why });
    }
  }

  /** Answers one of the page's requests with its typed reply. */
  private reply<R extends ChatRequest>(request: R, reply: ChatReplies[R['type']]): void {
    this.send({ type: 'reply', requestId: request.requestId, reply });
  }

  private async dispatch(message: WebviewMessage): Promise<void> {
    const controller = this.controller;
    switch (message.type) {
      case 'ready':
        this.live = true;
        this.loadedOnce = true;
        this.sendInit();
        this.loaded.fire();
        return;
      case 'resync':
        this.live = true;
        this.sendInit();
        return;
      case 'send':
        return this.reply(message, this.sendMessage(message.text, true));
      case 'sendPrompt':
        // Only what the user typed can be a slash command: a prompt file's text is a message, whatever it starts with.
        return this.reply(message, this.sendMessage(message.text, false));
      case 'addContext':
        return this.context?.add(message.source);
      case 'removeAttachment':
        return this.context?.remove(message.id);
      case 'trimContext':
        return this.context?.trim();
      case 'dropUris':
        // Untrusted paths (the webview can name any file): the sources read one outside the workspace only after the
        // host's own dialog naming its real path, and check every one for credentials.
        return this.context?.addUris(message.uris);
      case 'attachImage':
        return this.context?.addImage(message.name, message.data);
      case 'compare':
        // Not started (cancelled, a reply running): the page gives the question back to the input.
        return this.reply(message, { started: await this.startCompare(message.text, message.models) });
      case 'keepCompare':
        await this.compare?.keep(message.id, message.index);
        return;
      case 'closeCompare':
        return this.compare?.close();
      case 'stop':
        controller.stop();
        return;
      case 'sendAnyway':
        controller.sendAnyway(message.turnId);
        return;
      // Through the context when there is one: a conversation that no longer fits is held back, never sent whole.
      case 'regenerate':
        await (this.context ? this.context.regenerate() : controller.regenerate());
        return;
      case 'editResend':
        await (this.context ? this.context.editAndResend(message.turnId, message.text) : controller.editAndResend(message.turnId, message.text));
        return;
      case 'resolveOverflow':
        // Sending the newest turns took the input's text; when nothing was sent the page gives it back.
        return this.reply(message, { sent: this.context ? await this.context.resolveOverflow(message.choice, message.text) : false });
      case 'updateSettings':
        return controller.updateSettings(keepingProfile(message.settings, controller.session.settings));
      case 'copyTurn':
        return this.copyTurn(message.turnId);
      case 'codeAction':
        return this.codeAction(message.action, message.code, message.lang);
      case 'instructionsAction':
        return this.instructions?.action(message.action, message.index);
      case 'applyCode':
        return this.applyCode(message.turnId, message.code, message.lang);
      case 'openLink':
        return this.openLink(message.href);
      case 'errorAction':
        return this.errorAction(message.turnId, message.index);
      case 'exportSession':
        return this.workbench.exportSession(controller.session);
      case 'refreshModels':
        return this.workbench.refreshModels();
      case 'newChat':
        return this.workbench.newChat();
      case 'changeProfile':
        return this.workbench.changeProfile(controller.session.id);
      case 'readAloud':
        return this.hub?.readAloud(message.turnId);
      case 'mediaAction':
        return this.hub?.action(message.turnId, message.action);
      case 'refused':
        this.log.error(`Chat: the chat view refused a message from VS Code (${message.reason}); it shows an error and can reload the chat.`);
        return;
    }
  }

  /** Starts a comparison (the page's Compare button, or Compare Models…); false when none started. */
  startCompare(text: string, models: readonly string[]): Promise<boolean> {
    return this.compare ? this.compare.start(text, models) : Promise.resolve(false);
  }

  /** A message from the input: a slash command, else sent unless a reply runs or the chat would not fit (held back). */
  /** `asCommand`: what the user typed, which may be a slash command; a prompt file's text never is. */
  private sendMessage(text: string, asCommand: boolean): ChatReplies['send'] {
    // The controller's answer, for slash commands too: the page shows it ("Not sent: a reply is still running").
    const refused = this.controller.refusal;
    if (refused) {
      this.log.warn('Chat: a message was sent while a reply was still running; not sent.');
      return { sent: false, why: refused };
    }
    if (asCommand && this.hub?.handleSend(text, this.context?.tray)) return { sent: true };
    // Held back (it would overflow the context window): the warning says what can be done.
    if (this.context) return this.context.send(text) ? { sent: true } : { sent: false, why: 'heldBack' };
    this.controller.send(text);
    return { sent: true };
  }

  private sendInit(): void {
    const session = this.controller.session;
    const now = this.clock.now();
    this.send({
      type: 'init',
      sessionId: session.id,
      title: session.title,
      settings: session.settings,
      turns: session.turns.map((t) => this.wireTurn(t, now)),
      models: this.models(),
    });
    if (this.context) this.send({ type: 'context', context: this.context.state });
    if (this.compare?.state) this.send({ type: 'compare', compare: this.compare.state });
    if (this.pendingDraft) {
      const text = this.pendingDraft;
      this.pendingDraft = '';
      this.send({ type: 'draft', text });
    }
  }

  private forward(event: ChatEvent): void {
    const now = this.clock.now();
    switch (event.type) {
      case 'turnAdded':
        return this.send({ type: 'turnAdded', turn: this.wireTurn(event.turn, now) });
      case 'turnUpdated':
        if (this.pageRebuiltForMedia()) return;
        return this.send({ type: 'turnUpdated', turn: this.wireMedia(event.turn) });
      case 'delta':
        return this.send({ type: 'turnDelta', delta: event.delta });
      case 'turnFinished':
        return this.send({ type: 'turnFinished', finish: wireFinish(event.turn, now) });
      case 'turnsRemoved':
        return this.send({ type: 'turnsRemoved', fromIndex: event.fromIndex });
      case 'waiting':
        return this.send({ type: 'turnWaiting', turnId: event.turnId, waitMs: event.waitMs, sendAnyway: event.sendAnyway });
      case 'settings':
        return this.send({ type: 'settings', settings: event.settings });
      case 'title':
        return this.send({ type: 'title', title: event.title });
      case 'reloaded':
        return this.sendInit();
      case 'notSent':
        // Not saved, so not sent: what the user typed goes back to the input, and its context to the tray.
        for (const attachment of event.attachments) this.context?.tray.add(attachment);
        return this.send({ type: 'draft', text: event.text });
    }
  }

  /** Sends a message trimmed to what the webview accepts: a refused message would leave the chat blank or stuck. */
  private send(message: HostMessage): void {
    if (!this.live) return;
    const sent = this.port.send(message);
    if (sent) this.posted.fire(sent);
  }

  private wireMedia(turn: MediaTurn): WireMediaTurn {
    return this.hub ? this.hub.wire(turn) : NO_HUB_WIRE(turn);
  }

  private wireTurn(turn: Turn, now: number): WireTurn {
    return wireTurn(turn, now, (t) => this.wireMedia(t));
  }

  private findTurn(turnId: string): Turn | undefined {
    return this.controller.session.turns.find((t) => t.id === turnId);
  }

  private async copyTurn(turnId: string): Promise<void> {
    const turn = this.findTurn(turnId);
    if (!turn) return;
    const text = turn.role === 'assistant' ? turn.content || turn.refusal : turn.role === 'media' ? turn.url ?? turn.content : turn.content;
    await this.workbench.copyText(text);
  }

  private async codeAction(action: CodeActionKind, code: string, language: string): Promise<void> {
    if (action === 'copy') return this.workbench.copyText(code);
    if (action === 'insert') return this.workbench.insertAtCursor(code);
    return this.workbench.openInNewFile(code, language);
  }

  /** Apply: the block's path comes from the stored reply; what the user decided in the review is saved on it. */
  private async applyCode(turnId: string, code: string, lang: string): Promise<void> {
    const turn = turnId ? this.findTurn(turnId) : undefined;
    const reply = turn?.role === 'assistant' ? turn : undefined;
    const result = await this.workbench.applyCode({ code, info: (reply && fenceInfoFor(reply.content, code)) ?? lang, replyAt: reply?.createdAt });
    if (result && reply) await this.controller.recordApply(reply.id, { ...result, at: this.clock.now() });
  }

  private async openLink(href: string): Promise<void> {
    const url = safeExternalUrl(href);
    if (!url) {
      this.log.warn(`Chat: refused to open a link that is not http or https: ${href.slice(0, 100)}`);
      return;
    }
    await this.workbench.openExternal(url);
  }

  /** A button of a reply's error card or of a failed media turn: the `index`th action that turn itself offers. */
  private async errorAction(turnId: string, index: number): Promise<void> {
    const turn = this.findTurn(turnId);
    const offered = turn?.role === 'assistant' ? turn.error?.actions : turn?.role === 'media' && turn.state === 'failed' ? turn.actions : undefined;
    const action = offered?.[index];
    if (!action) return;
    if (turn?.role === 'assistant' && action.command === RESEND_WITHOUT_IMAGES.command) {
      await (this.context ? this.context.resendWithoutImages() : this.controller.resendWithoutImages());
      return;
    }
    // The action comes from the session file and the click from the webview: only advice's own actions run.
    const listed = listedAction(action);
    if (!listed) {
      this.log.warn(`Chat: refused to run ${action.command} from an error action (not an action advice offers).`);
      return;
    }
    await this.workbench.runCommand(listed.command, listed.args ? [...listed.args] : []);
  }

  dispose(): void {
    this.subscription.dispose();
    this.posted.dispose();
    this.received.dispose();
    this.loaded.dispose();
  }
}
