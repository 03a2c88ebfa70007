// The chat webview: renders the transcript from the host's messages (one `init`, then changes) and turns the
// user's actions into protocol messages. Everything received is checked first; anything else is dropped.
import type { ChatSettings, TokenUsage } from '../../chatProtocol/session';
import { parseHostMessage, type HostMessage, type ModelsState, type WebviewMessage, type WireTurn } from '../../chatProtocol/messages';
import { HostRequests } from './hostRequests';
import { LazyRendering } from '../markdown';
import { Announcer } from './announcer';
import { ContextBar } from './attachments';
import { CompareView } from './compareView';
import { Composer } from './composer';
import { el, iconButton } from './dom';
import { ProtocolErrorBanner } from './protocolError';
import { SettingsView } from './settingsView';
import { AssistantTurnView, NewerTurnView, usageText, UserTurnView, type TurnContext } from './turnViews';
import { MediaTurnView } from './mediaTurnView';
import { OlderTurns } from './olderTurns';
import { parseSlash, SLASH_COMMANDS } from '../../chatProtocol/slash';
import { expandPrompt, type PromptCommand } from '../../chatProtocol/instructions';
import { InstructionsChip } from './instructionsChip';
import { ProfileChip } from './profileChip';

export interface HostChannel {
  post(message: WebviewMessage): void;
  setState(state: { sessionId: string; draft?: string }): void;
}

type TurnView = UserTurnView | AssistantTurnView | MediaTurnView | NewerTurnView;

export interface ChatAppOptions {
  /**
   * How the replies of a chat being opened or restored are rendered: 'lazily' (default: what is on screen at once,
   * the rest in idle time or when scrolled to) or 'at once' (every reply before the first frame: the one-shot baseline
   * of the render bench, and the reference the tests compare with).
   */
  history?: 'lazily' | 'at once';
}

export class ChatApp {
  private views: TurnView[] = [];
  private sessionId = '';
  private draft = '';
  private initialized = false;
  private awaitingResync = false;
  private stickToBottom = true;
  private lastScrollTop = 0;
  private scrollFrame: number | undefined;
  private readonly announcer: Announcer;
  private readonly settings: SettingsView;
  private readonly composer: Composer;
  private readonly contextBar: ContextBar;
  private readonly compareView: CompareView;
  private readonly transcript = el('main', { class: 'transcript', attrs: { 'aria-label': 'Messages', tabindex: '0' } });
  private readonly emptyState = el('div', { class: 'empty-state' });
  private readonly sessionUsage = el('span', { class: 'session-usage' });
  private readonly settingsToggle: HTMLButtonElement;
  private readonly context: TurnContext;
  private readonly instructionsChip: InstructionsChip;
  private readonly profileChip: ProfileChip;
  private prompts: readonly PromptCommand[] = [];
  private readonly protocolError = new ProtocolErrorBanner(() => this.host.post({ type: 'resync' }));
  /** Send, Compare and an overflow's way out wait for the host's typed reply. */
  private readonly requests: HostRequests;

  private historyRendering: LazyRendering;
  /** The older turns of a chat being opened, built after its last screens. */
  private olderTurns: OlderTurns | undefined;

  constructor(
    root: HTMLElement,
    private readonly host: HostChannel,
    private readonly options: ChatAppOptions = {},
  ) {
    this.announcer = new Announcer(document.body);
    this.requests = new HostRequests({ post: (m) => host.post(m), giveBack: (text) => this.composer.appendDraft(text), notify: (text) => this.announcer.say(text) });
    this.historyRendering = this.newHistoryRendering();
    this.context = {
      post: (m) => host.post(m),
      announcer: this.announcer,
      edit: (id) => this.startEdit(id),
      followNewText: () => this.followNewText(),
      deferRendering: (element, text, box) => this.historyRendering.defer(element, text, box),
      skipWhileOffScreen: (box, text) => this.historyRendering.skipWhileOffScreen(box, text),
    };
    this.settings = new SettingsView(
      (settings) => host.post({ type: 'updateSettings', settings }),
      () => host.post({ type: 'refreshModels' }),
    );
    this.composer = new Composer({
      send: (typed) => {
        // A prompt file's command sends the prompt's text (and what follows the command) as a message: text from a
        // file is never read as a command, whatever it starts with.
        const prompt = expandPrompt(typed, this.prompts, SLASH_COMMANDS.map((c) => c.name));
        if (prompt !== undefined) {
          if (!this.contextBar.allowsSend(prompt)) return false;
          void this.requests.send(prompt, { typed });
          return true;
        }
        const text = typed;
        const slash = parseSlash(text);
        if (slash && !slash.ok) {
          this.composer.showProblem(slash.problem);
          this.announcer.say(slash.problem);
          return false;
        }
        // A slash command goes to the image, video or speech model, not into the chat's context window.
        if (!slash && !this.contextBar.allowsSend(text)) return false;
        void this.requests.send(text);
        return true;
      },
      resend: (turnId, text) => host.post({ type: 'editResend', turnId, text }),
      stop: () => host.post({ type: 'stop' }),
      editLast: () => this.editLast(),
      notify: (text) => this.announcer.say(text),
      draftChanged: (draft) => {
        this.draft = draft;
        this.saveState();
      },
    });
    this.contextBar = new ContextBar(this.composer.textArea, { post: (m) => host.post(m), resolveOverflow: (choice, text) => void this.requests.resolveOverflow(choice, text), notify: (text) => this.announcer.say(text), hasHistory: () => this.views.length > 0 || (this.olderTurns?.turns.length ?? 0) > 0 });
    this.composer.root.prepend(this.contextBar.root);
    this.instructionsChip = new InstructionsChip((m) => host.post(m));
    this.composer.root.prepend(this.instructionsChip.root);
    this.compareView = new CompareView(this.context, (question) => {
      if (this.composer.textArea.value.trim() === '') this.composer.appendDraft(question);
    });
    this.contextBar.acceptDrops(this.composer.root);
    this.profileChip = new ProfileChip((m) => host.post(m));
    this.settingsToggle = iconButton('settings-gear', 'Chat settings', () => this.toggleSettings());
    this.settingsToggle.setAttribute('aria-expanded', 'false');
    this.settingsToggle.setAttribute('aria-controls', 'session-settings');
    const toolbar = el(
      'header',
      { class: 'chat-toolbar', attrs: { role: 'toolbar', 'aria-label': 'Chat' } },
      this.settings.modelPicker,
      this.settingsToggle,
      el('span', { class: 'spacer' }),
      this.profileChip.root,
      this.sessionUsage,
      iconButton('split-horizontal', 'Compare models: ask 2 or 3 models the question in the input', () => this.startCompare()),
      iconButton('export', 'Export chat to Markdown', () => host.post({ type: 'exportSession' })),
      iconButton('add', 'New chat', () => host.post({ type: 'newChat' })),
    );
    this.emptyState.append(
      el('p', { text: 'Ask the model anything.' }),
      el('p', { class: 'hint', text: 'Enter sends · Shift+Enter new line · Escape stops a reply · Up edits your last message' }),
    );
    this.transcript.append(this.emptyState);
    this.transcript.addEventListener('scroll', () => this.onScroll());
    root.append(toolbar, this.settings.panel, this.protocolError.root, this.transcript, this.compareView.root, this.composer.root);
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && !event.defaultPrevented && this.busy) {
        event.preventDefault();
        host.post({ type: 'stop' });
      }
    });
  }

  /** Resolves once every reply of the chat as opened has been rendered (they render lazily: see ChatAppOptions). */
  async whenHistoryRendered(): Promise<void> {
    await this.olderTurns?.whenBuilt();
    return this.historyRendering.whenDone();
  }

  /** Checks and applies one message from the host. */
  receive(raw: unknown): void {
    const parsed = parseHostMessage(raw);
    if (!parsed.ok) {
      this.protocolError.show(parsed.reason);
      this.host.post({ type: 'refused', reason: parsed.reason.slice(0, 500) });
      // What was refused may have been a reply's end: ask for the whole chat once (a refused init does not loop).
      if (this.initialized) this.resync();
      return;
    }
    const message = parsed.message;
    if (message.type === 'reply') {
      this.requests.settle(message);
      return;
    }
    if (message.type === 'init') this.protocolError.hide();
    if (message.type !== 'init' && !this.initialized) return;
    this.apply(message);
    this.refreshControls();
    this.scheduleScroll();
  }

  private apply(message: HostMessage): void {
    switch (message.type) {
      case 'init':
        return this.init(message);
      case 'turnAdded':
        this.addTurn(message.turn, true);
        if (message.turn.role === 'assistant') this.announcer.say('Waiting for the reply.');
        return;
      case 'turnUpdated': {
        const view = this.findView(message.turn.id);
        if (view instanceof MediaTurnView) view.update(message.turn);
        else this.resync();
        return;
      }
      case 'mediaAudio':
      case 'mediaAudioEnd': {
        const view = this.findView(message.turnId);
        if (view instanceof MediaTurnView) view.audio(message);
        return;
      }
      case 'turnDelta': {
        const view = this.assistantView(message.delta.turnId);
        if (view && !view.applyDelta(message.delta)) this.resync();
        else if (!view) this.resync();
        return;
      }
      case 'turnFinished': {
        const view = this.assistantView(message.finish.turnId);
        if (!view) return this.resync();
        view.finish(message.finish);
        this.updateSessionUsage();
        return;
      }
      case 'turnWaiting':
        this.assistantView(message.turnId)?.setWaiting(message.waitMs ?? undefined, message.sendAnyway);
        return;
      case 'turnsRemoved':
        this.olderTurns?.buildAll(); // fromIndex counts every turn
        for (const view of this.views.splice(message.fromIndex)) view.dispose();
        this.updateSessionUsage();
        return;
      case 'settings':
        return this.settings.set(message.settings);
      case 'title':
        document.title = message.title;
        return;
      case 'models':
        return this.settings.setModels(message.models);
      case 'draft':
        return this.composer.appendDraft(message.text);
      case 'context':
        return this.contextBar.set(message.context);
      case 'compare':
        return this.compareView.set(message.compare);
      case 'instructions':
        this.prompts = message.instructions.prompts;
        this.composer.setPrompts(this.prompts);
        return this.instructionsChip.update(message.instructions);
      case 'profile':
        return this.profileChip.set(message.name);
      case 'reply':
        return;
    }
  }

  private init(message: { sessionId: string; title: string; settings: ChatSettings; turns: WireTurn[]; models: ModelsState }): void {
    this.sessionId = message.sessionId;
    this.saveState();
    for (const view of this.views) view.dispose();
    this.views = [];
    this.olderTurns?.dispose();
    this.olderTurns = undefined;
    this.historyRendering.dispose();
    this.historyRendering = this.newHistoryRendering();
    document.title = message.title;
    this.settings.set(message.settings);
    this.settings.setModels(message.models);
    const lazily = this.options.history !== 'at once';
    const { now, older } = lazily ? OlderTurns.split(message.turns, this.transcript) : { now: message.turns, older: [] };
    for (const turn of now) this.addTurn(turn, false);
    if (older.length > 0) {
      this.olderTurns = new OlderTurns(older, {
        transcript: this.transcript,
        build: (turn, before) => this.addOlderTurn(turn, before),
        built: () => this.refreshControls(),
      });
      this.olderTurns.start(this.views[0]?.root ?? null);
    }
    this.updateSessionUsage();
    this.awaitingResync = false;
    this.stickToBottom = true;
    this.emptyState.hidden = this.views.length > 0;
    if (!lazily) this.historyRendering.renderAllNow();
    else this.historyRendering.renderVisibleNow();
    // Only while the page has focus: a chat that finishes loading behind a quick pick or the palette must not take
    // the focus from it (taking it closes the pick).
    if (!this.initialized && document.hasFocus()) this.composer.focus();
    this.initialized = true;
  }

  /**
   * Puts back what was typed before the page was rebuilt. The rebuild is the host's doing, not the user's: as on
   * opening, the input takes the focus only while the page has it.
   */
  restoreDraft(text: string): void {
    this.composer.appendDraft(text, document.hasFocus());
  }

  private saveState(): void {
    if (this.sessionId) this.host.setState(this.draft ? { sessionId: this.sessionId, draft: this.draft } : { sessionId: this.sessionId });
  }

  /** A long chat opens at its last screen at once; the replies above render in idle time or when scrolled to. */
  private newHistoryRendering(): LazyRendering {
    return new LazyRendering(this.transcript, { onRendered: () => this.followNewText() });
  }

  private addTurn(turn: WireTurn, live: boolean): void {
    const view = this.viewOf(turn, live);
    this.views.push(view);
    this.transcript.append(view.root);
  }

  /** The view of a turn: `live` when it arrives now, not from the chat's history. */
  private viewOf(turn: WireTurn, live: boolean): TurnView {
    if (turn.role === 'user') return new UserTurnView(turn, this.context, !live);
    if (turn.role === 'media') return new MediaTurnView(turn, this.context);
    if (turn.role === 'newer') return new NewerTurnView(turn);
    return new AssistantTurnView(turn, this.context, live || turn.status === 'streaming');
  }

  /** A turn from history older than every view so far (the older turns of an opened chat are built last). */
  private addOlderTurn(turn: WireTurn, before: Node | null): void {
    const view = this.viewOf(turn, false);
    this.views.unshift(view);
    this.transcript.insertBefore(view.root, before);
  }

  /** The view of a turn; builds the older turns first when it is not among the views built. */
  private findView(turnId: string): TurnView | undefined {
    const view = this.views.find((v) => v.id === turnId);
    if (view || !this.olderTurns?.count) return view;
    this.olderTurns.buildAll();
    return this.views.find((v) => v.id === turnId);
  }

  private assistantView(turnId: string): AssistantTurnView | undefined {
    const view = this.findView(turnId);
    return view instanceof AssistantTurnView ? view : undefined;
  }

  /**
   * The host's answer (ChatController.refusal), as the turns it sent show it: its last reply still streaming. The page
   * only shows it (Stop instead of Send, edits disabled); the host refuses what arrives while busy whatever the page thinks.
   */
  private get busy(): boolean {
    const last = this.views.at(-1);
    return last instanceof AssistantTurnView && last.streaming;
  }

  private refreshControls(): void {
    const busy = this.busy;
    this.emptyState.hidden = this.views.length > 0;
    const lastAssistant = [...this.views].reverse().find((v) => v instanceof AssistantTurnView);
    for (const view of this.views) {
      if (view instanceof UserTurnView) view.setControls(busy);
      else if (view instanceof AssistantTurnView) view.setControls(view === lastAssistant && view === this.views.at(-1), busy);
    }
    this.composer.setBusy(busy);
  }

  private updateSessionUsage(): void {
    const total: TokenUsage = { prompt: 0, completion: 0, total: 0 };
    const older = (this.olderTurns?.turns ?? []).map((turn) => (turn.role === 'assistant' ? turn.usage : null));
    for (const usage of [...older, ...this.views.map((view) => (view instanceof AssistantTurnView ? view.usage : null))]) {
      if (!usage) continue;
      total.prompt += usage.prompt;
      total.completion += usage.completion;
      total.total += usage.total;
    }
    this.sessionUsage.hidden = total.total === 0;
    this.sessionUsage.textContent = `This chat: ${usageText(total)}`;
  }

  private startCompare(): void {
    const text = this.composer.textArea.value;
    if (text.trim() === '') return this.announcer.say('Type the question to compare first.');
    // Compare sends the whole conversation to every model: it is never sent with turns left out.
    if (this.busy || !this.contextBar.allowsSend(text, false)) return;
    this.composer.textArea.value = '';
    void this.requests.compare(text);
  }

  private startEdit(turnId: string): void {
    const view = this.findView(turnId);
    if (view instanceof UserTurnView) this.composer.startEdit(view.id, view.turn.content);
  }

  private editLast(): boolean {
    if (!this.views.some((v) => v instanceof UserTurnView)) this.olderTurns?.buildAll();
    const last = [...this.views].reverse().find((v) => v instanceof UserTurnView);
    if (!(last instanceof UserTurnView)) return false;
    this.composer.startEdit(last.id, last.turn.content);
    return true;
  }

  private toggleSettings(): void {
    const open = this.settings.panel.hidden;
    this.settings.panel.hidden = !open;
    this.settingsToggle.setAttribute('aria-expanded', String(open));
    if (open) this.settings.panel.querySelector<HTMLElement>('textarea, input, select')?.focus();
  }

  private resync(): void {
    if (this.awaitingResync) return;
    this.awaitingResync = true;
    this.host.post({ type: 'resync' });
  }

  /** Follows new text while the user is at the bottom; scrolling up (and only that) stops following. */
  private onScroll(): void {
    const top = this.transcript.scrollTop;
    if (this.transcript.scrollHeight - top - this.transcript.clientHeight < 48) this.stickToBottom = true;
    else if (top < this.lastScrollTop) this.stickToBottom = false;
    this.lastScrollTop = top;
  }

  /**
   * A markdown view changed its DOM (its updates are rate-limited, so not in the frame of the message that brought the
   * text): keep the newest text in view right there, in the same frame.
   */
  private followNewText(): void {
    if (this.stickToBottom) this.transcript.scrollTop = this.transcript.scrollHeight;
  }

  private scheduleScroll(): void {
    if (this.scrollFrame !== undefined || !this.stickToBottom) return;
    // For what a message changes outside the markdown views (a new turn, an error, usage); the views follow their
    // own updates. Runs after the markdown renderers' frame callbacks requested earlier in this task.
    this.scrollFrame = requestAnimationFrame(() => {
      this.scrollFrame = undefined;
      this.followNewText();
    });
  }
}
