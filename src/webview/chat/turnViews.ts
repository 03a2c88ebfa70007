// The two kinds of message in the transcript. An assistant turn keeps a mirror of its text so each delta can be
// checked against what is already shown (a gap asks the host for the whole transcript again).
import { applyDelta, NEWER_TURN_TEXT, oldestTurnsText, prettyJson, type AssistantTurn, type TokenUsage } from '../../chatProtocol/session';
import type { WireNewerTurn, WireUserTurn } from '../../chatProtocol/messages';
import { sentChips } from './attachments';
import { thinkingSummary } from '../../chatProtocol/thinking';
import { StreamingMarkdown, type FrameScheduler } from '../markdown';
import { markdownWorker } from './parseWorker';
import type { TurnFinish, WebviewMessage, WireAssistantTurn, WireTurnError } from '../../chatProtocol/messages';
import type { Announcer } from './announcer';
import { el, icon, iconButton, setLabel, textButton } from './dom';
import { formatUsd } from '../../usage/core/api';
import { waitText } from '../../util/waitText';

export interface TurnContext {
  post(message: WebviewMessage): void;
  announcer: Announcer;
  /** Starts editing a user message in the input box. */
  edit(turnId: string): void;
  /** A markdown view's DOM changed: follow the newest text if the transcript is scrolled to the bottom. */
  followNewText(): void;
  /**
   * For the complete text of a turn from history: a scheduler that renders it when the transcript gets to it (on
   * screen first, the rest in idle time) instead of right away.
   */
  deferRendering(element: HTMLElement, text: string, box?: HTMLElement): FrameScheduler;
  /** For a message from history without markdown: the browser may skip it while it is off screen. */
  skipWhileOffScreen(box: HTMLElement, text: string): void;
}

/** One formatter for every count (toLocaleString makes a new one per call: slow for a chat of hundreds of turns). */
const counts = new Intl.NumberFormat();

export function usageText(usage: TokenUsage): string {
  const cost = usage.cost === undefined ? '' : ` · ${formatUsd(usage.cost)}`;
  return `${counts.format(usage.prompt)} prompt · ${counts.format(usage.completion)} completion · ${counts.format(usage.total)} tokens${cost}`;
}

/**
 * `announce`: whether finished blocks are read out now (none for a view that is never announced: the plain text of
 * each block is not even made). `deferred`: a history view's scheduler (it follows the bottom itself, once per slice).
 */
export function markdownFor(container: HTMLElement, context: TurnContext, announce: (() => boolean) | undefined, deferred?: FrameScheduler, turnId = ''): StreamingMarkdown {
  return new StreamingMarkdown(container, {
    scheduler: deferred,
    // A reply from history is rendered whole; one that streams in is parsed in the worker.
    worker: deferred ? undefined : markdownWorker(),
    onBlockCompleted: announce
      ? (text) => {
          if (announce()) context.announcer.say(text);
        }
      : undefined,
    onLinkActivated: (href) => context.post({ type: 'openLink', href }),
    onCodeAction: (action, code, lang) => {
      // Apply names the reply: the host takes the block's path from the stored reply and records the outcome on it.
      if (action === 'apply') return code === '' ? undefined : context.post({ type: 'applyCode', turnId, code, lang });
      context.post({ type: 'codeAction', action, code, lang });
      if (action === 'copy') context.announcer.say('Code copied.');
    },
    onRendered: deferred ? undefined : () => context.followNewText(),
  });
}

export class UserTurnView {
  readonly root: HTMLElement;
  private readonly editButton: HTMLButtonElement;

  constructor(
    readonly turn: WireUserTurn,
    context: TurnContext,
    fromHistory = false,
  ) {
    this.editButton = iconButton('edit', 'Edit and resend', () => context.edit(turn.id));
    const actions = el('div', { class: 'turn-actions' }, iconButton('copy', 'Copy message', () => context.post({ type: 'copyTurn', turnId: turn.id })), this.editButton);
    const header = el('div', { class: 'turn-header' }, icon('account'), el('span', { class: 'who', text: 'You' }), actions);
    this.root = el('article', { class: 'turn user-turn', attrs: { 'aria-label': 'You said', 'data-turn-id': turn.id, tabindex: '-1' } }, header, el('div', { class: 'user-text', text: turn.content }), sentChips(turn.attachments ?? []));
    if (fromHistory) context.skipWhileOffScreen(this.root, turn.content);
  }

  get id(): string {
    return this.turn.id;
  }

  setControls(busy: boolean): void {
    this.editButton.disabled = busy;
  }

  dispose(): void {
    this.root.remove();
  }
}

/** A turn a newer version of the extension made: kept in the chat, not shown, said so in one small line. */
export class NewerTurnView {
  readonly root: HTMLElement;

  constructor(readonly turn: WireNewerTurn) {
    const note = el('span', { class: 'newer-turn-note', text: `${NEWER_TURN_TEXT}; update the extension to see it.` });
    this.root = el('article', { class: 'turn newer-turn', attrs: { 'aria-label': NEWER_TURN_TEXT, 'data-turn-id': turn.id, tabindex: '-1' } }, icon('info'), note);
  }

  get id(): string {
    return this.turn.id;
  }

  dispose(): void {
    this.root.remove();
  }
}

export class AssistantTurnView {
  readonly root: HTMLElement;
  private readonly turn: AssistantTurn;
  private content: StreamingMarkdown;
  private readonly contentBox = el('div', { class: 'content markdown-body' });
  private readonly reasoning: StreamingMarkdown;
  private readonly reasoningBox = el('details', { class: 'reasoning', hidden: true });
  private readonly reasoningLabel = el('span', { text: 'Reasoning' });
  private readonly refusalBox = el('div', { class: 'refusal', hidden: true });
  private readonly toolCallsBox = el('div', { class: 'tool-calls', hidden: true });
  private readonly statusBox = el('div', { class: 'turn-status' });
  /** Beside the status, not in it: the status is redrawn every second, and a redrawn button would lose focus. */
  private readonly sendAnywayButton = el('button', { class: 'send-anyway', text: 'Send anyway', hidden: true, attrs: { type: 'button', title: 'Send it now: the gateway says whether its limit allows it' } });
  private readonly errorBox = el('div', { class: 'turn-error', hidden: true, attrs: { role: 'group', 'aria-label': 'Problem with this reply' } });
  private readonly usageBox = el('div', { class: 'usage', hidden: true });
  private readonly modelBadge = el('span', { class: 'model-badge' });
  private readonly regenerateButton: HTMLButtonElement;
  private countdown: ReturnType<typeof setInterval> | undefined;
  /** When the request waiting for the gateway's rate limit goes (webview clock), and the ticker counting down to it. */
  private sendsAt: number | undefined;
  private waitTicker: ReturnType<typeof setInterval> | undefined;
  /** The wait is long: the notice offers to send now. */
  private canSendAnyway = false;
  private error: WireTurnError | undefined;
  /** When Retry becomes possible (webview clock), counted from when the error arrived. */
  private retryDeadline: number | undefined;
  private isLast = false;
  private live: boolean;
  /** Restored from history, complete: rendered lazily. */
  private readonly history: boolean;

  constructor(
    wire: WireAssistantTurn,
    private readonly context: TurnContext,
    /** True for a reply that streams in now (its text is announced); false for history. */
    live: boolean,
  ) {
    const { error, ...turn } = wire;
    this.turn = { ...turn, content: '', reasoning: '', refusal: '', toolCalls: [] };
    this.live = false;
    this.regenerateButton = iconButton('refresh', 'Regenerate reply', () => context.post({ type: 'regenerate' }));
    this.sendAnywayButton.addEventListener('click', () => context.post({ type: 'sendAnyway', turnId: wire.id }));
    const readAloud = iconButton('unmute', 'Read aloud', () => context.post({ type: 'readAloud', turnId: wire.id }), 'read-aloud');
    const actions = el('div', { class: 'turn-actions' }, iconButton('copy', 'Copy reply', () => context.post({ type: 'copyTurn', turnId: wire.id })), readAloud, this.regenerateButton);
    const header = el('div', { class: 'turn-header' }, icon('sparkle'), el('span', { class: 'who', text: 'Assistant' }), this.modelBadge, actions);
    const reasoningBody = el('div', { class: 'reasoning-body markdown-body' });
    // Sent with only the newest turns (the user chose it): said on the reply, so it is visible afterwards too.
    const omitted = wire.omittedTurns
      ? el('p', { class: 'turn-note', attrs: { role: 'note' } }, icon('fold-up'), el('span', { text: omittedTurnsNote(wire.omittedTurns) }))
      : null;
    this.reasoningBox.append(el('summary', {}, icon('chevron-right'), icon('lightbulb'), this.reasoningLabel), reasoningBody);
    this.root = el(
      'article',
      { class: 'turn assistant-turn', attrs: { 'aria-label': 'Assistant replied', 'data-turn-id': wire.id, tabindex: '-1' } },
      header,
      omitted,
      this.reasoningBox,
      this.contentBox,
      this.refusalBox,
      this.toolCallsBox,
      this.statusBox,
      this.sendAnywayButton,
      this.errorBox,
      this.usageBox,
    );
    // A finished turn from history renders when the transcript gets to it; views are deferred in document order.
    this.history = !live && wire.status !== 'streaming';
    this.reasoning = markdownFor(reasoningBody, context, undefined, this.history ? context.deferRendering(reasoningBody, wire.reasoning) : undefined);
    this.content = this.history
      ? markdownFor(this.contentBox, context, undefined, context.deferRendering(this.contentBox, wire.content, this.root), wire.id)
      : markdownFor(this.contentBox, context, () => this.live, undefined, wire.id);
    // History is rendered silently; only text arriving from now on is announced.
    this.applyDelta({
      turnId: wire.id,
      content: { at: 0, text: wire.content },
      reasoning: { at: 0, text: wire.reasoning },
      refusal: { at: 0, text: wire.refusal },
      toolCalls: wire.toolCalls.map((c, index) => ({ index, id: c.id, name: c.name, at: 0, arguments: c.arguments })),
    });
    this.live = live;
    if (wire.status !== 'streaming') this.finish({ turnId: wire.id, status: wire.status, model: wire.model, finishReason: wire.finishReason, usage: wire.usage, thoughtMs: wire.thoughtMs, error }, false);
    else this.renderStatus();
  }

  get id(): string {
    return this.turn.id;
  }

  get streaming(): boolean {
    return this.turn.status === 'streaming';
  }

  get usage(): TokenUsage | null {
    return this.turn.usage;
  }

  /** Applies streamed output; false when it does not line up with what is shown. */
  applyDelta(delta: Parameters<typeof applyDelta>[1]): boolean {
    const applied = applyDelta(this.turn, delta);
    if (applied.content) this.content.append(applied.content);
    if (applied.reasoning) {
      this.reasoningBox.hidden = false;
      this.reasoning.append(applied.reasoning);
    }
    if (applied.refusal) {
      this.refusalBox.hidden = false;
      this.renderRefusal();
    }
    if (applied.toolCallsChanged) this.renderToolCalls(false);
    if (applied.content || applied.reasoning || applied.refusal || applied.toolCallsChanged) this.renderStatus();
    return !applied.gap;
  }

  /**
   * The request waits `waitMs` more for the gateway's rate limit (undefined: it was sent); Stop cancels it, and a
   * long wait (`sendAnyway`) can be cut short: the pacing only foresees the limit, the gateway's answer decides.
   */
  setWaiting(waitMs: number | undefined, sendAnyway = false): void {
    const was = this.sendsAt;
    this.sendsAt = waitMs === undefined ? undefined : Date.now() + waitMs;
    this.canSendAnyway = waitMs !== undefined && sendAnyway;
    if (this.waitTicker !== undefined) clearInterval(this.waitTicker);
    this.waitTicker = this.sendsAt === undefined ? undefined : setInterval(() => this.renderStatus(), 1000);
    if (was === undefined && waitMs !== undefined) {
      const seconds = Math.ceil(waitMs / 1000);
      this.context.announcer.say(`Waiting for the gateway's rate limit: sending in ${seconds < 120 ? `${seconds} seconds` : waitText(seconds)}.${this.canSendAnyway ? ' Send anyway sends it now.' : ''}`);
    }
    this.renderStatus();
  }

  finish(finish: TurnFinish, announce = true): void {
    if (this.sendsAt !== undefined) this.setWaiting(undefined);
    this.turn.status = finish.status;
    this.turn.model = finish.model;
    this.turn.finishReason = finish.finishReason;
    this.turn.usage = finish.usage;
    this.turn.thoughtMs = finish.thoughtMs;
    this.error = finish.error;
    this.retryDeadline = finish.error?.retryInMs ? Date.now() + finish.error.retryInMs : undefined;
    // The rest is rendered over the next frames (a reply that streamed faster than it rendered would otherwise end
    // in one long task).
    void this.content.finish();
    void this.reasoning.finish();
    this.live = false;
    this.showJsonAsCode();
    if (this.turn.toolCalls.length > 0) this.renderToolCalls(true);
    this.renderStatus();
    this.renderError();
    if (finish.usage) {
      this.usageBox.hidden = false;
      this.usageBox.textContent = usageText(finish.usage);
    }
    if (announce) this.announceEnd();
  }

  setControls(isLast: boolean, busy: boolean): void {
    const lastChanged = this.isLast !== isLast;
    this.isLast = isLast;
    this.regenerateButton.hidden = !isLast || this.streaming;
    this.regenerateButton.disabled = busy;
    if (lastChanged) this.renderError();
  }

  dispose(): void {
    this.stopCountdown();
    if (this.waitTicker !== undefined) clearInterval(this.waitTicker);
    this.content.dispose();
    this.reasoning.dispose();
    this.root.remove();
  }

  private announceEnd(): void {
    const announcer = this.context.announcer;
    if (this.turn.status === 'complete') announcer.say(this.turn.finishReason === 'length' ? 'Reply complete (cut off at the token limit).' : 'Reply complete.');
    else if (this.turn.status === 'stopped') announcer.say('Reply stopped.');
    else if (this.error) announcer.alert(`${this.turn.status === 'interrupted' ? 'Reply interrupted' : 'Reply failed'}: ${this.error.message}`);
  }

  private renderStatus(): void {
    const status = this.turn.status;
    this.root.setAttribute('aria-busy', String(status === 'streaming'));
    this.modelBadge.textContent = this.turn.model;
    this.modelBadge.hidden = this.turn.model === '';
    this.reasoningLabel.textContent = thinkingSummary(this.turn);
    this.statusBox.replaceChildren();
    this.statusBox.className = `turn-status status-${status}`;
    const hasOutput = this.turn.content !== '' || this.turn.reasoning !== '' || this.turn.refusal !== '' || this.turn.toolCalls.length > 0;
    if (status === 'streaming' && !hasOutput && this.sendsAt !== undefined) {
      const seconds = Math.max(0, Math.ceil((this.sendsAt - Date.now()) / 1000));
      this.statusBox.append(icon('watch'), el('span', { class: 'pace-wait', text: `Waiting for the gateway's rate limit: sending in ${waitText(seconds)}. Stop cancels it.` }));

    } else if (status === 'streaming' && !hasOutput) this.statusBox.append(icon('loading codicon-modifier-spin'), el('span', { text: 'Waiting for the reply…' }));
    else if (status === 'stopped') this.statusBox.append(icon('debug-stop'), el('span', { text: 'Stopped. The text above is what arrived before you stopped the reply.' }));
    else if (status === 'interrupted') this.statusBox.append(icon('debug-disconnect'), el('span', { text: 'Interrupted. The text above is what arrived before the reply was cut off.' }));
    else if (status === 'complete' && this.turn.finishReason === 'length') this.statusBox.append(icon('warning'), el('span', { text: 'Cut off at the max_tokens limit.' }));
    else if (status === 'complete' && this.turn.finishReason === 'content_filter') this.statusBox.append(icon('warning'), el('span', { text: 'Stopped by the content filter.' }));
    this.statusBox.hidden = this.statusBox.childElementCount === 0;
    this.sendAnywayButton.hidden = !(status === 'streaming' && !hasOutput && this.sendsAt !== undefined && this.canSendAnyway);
  }

  private renderRefusal(): void {
    this.refusalBox.replaceChildren(icon('circle-slash'), el('span', { class: 'refusal-text', text: this.turn.refusal }));
  }

  private renderToolCalls(final: boolean): void {
    this.toolCallsBox.hidden = this.turn.toolCalls.length === 0;
    const openStates = Array.from(this.toolCallsBox.querySelectorAll('details'), (d) => d.open);
    this.toolCallsBox.replaceChildren(
      ...this.turn.toolCalls.map((call, i) => {
        const args = final ? prettyJson(call.arguments) : call.arguments;
        const details = el(
          'details',
          { class: 'tool-call' },
          el('summary', {}, icon('chevron-right'), icon('tools'), el('span', { text: 'Tool call ' }), el('code', { text: call.name || '…' })),
          el('pre', {}, el('code', { text: args || '(no arguments)' })),
        );
        details.open = openStates[i] ?? true;
        return details;
      }),
    );
  }

  /** A reply that is one JSON value (JSON mode) reads better as a highlighted block than as paragraphs. */
  private showJsonAsCode(): void {
    const text = this.turn.content.trim();
    if (!/^[[{]/.test(text) || this.turn.content.includes('```')) return;
    try {
      JSON.parse(text);
    } catch {
      return;
    }
    this.content.dispose();
    this.contentBox.replaceChildren();
    const source = `\`\`\`json\n${text}\n\`\`\`\n`;
    this.content = markdownFor(this.contentBox, this.context, undefined, this.history ? this.context.deferRendering(this.contentBox, source, this.root) : undefined, this.turn.id);
    this.content.append(source);
    if (this.history) void this.content.finish();
    else this.content.end();
  }

  private renderError(): void {
    this.stopCountdown();
    const error = this.error;
    this.errorBox.hidden = !error;
    if (!error) return;
    const actions = el('div', { class: 'error-actions' });
    error.actions.forEach((title, index) => actions.append(textButton('arrow-right', title, () => this.context.post({ type: 'errorAction', turnId: this.turn.id, index }))));
    if (this.isLast) {
      const retry = textButton('refresh', 'Retry', () => this.context.post({ type: 'regenerate' }), 'primary');
      actions.append(retry);
      if (this.retryDeadline !== undefined && this.retryDeadline > Date.now()) this.startCountdown(retry, this.retryDeadline);
    }
    this.errorBox.replaceChildren(el('div', { class: 'error-message' }, icon('error'), el('span', { text: error.message })), actions);
    this.errorBox.hidden = false;
  }

  private startCountdown(button: HTMLButtonElement, deadline: number): void {
    const tick = (): void => {
      const seconds = Math.ceil((deadline - Date.now()) / 1000);
      if (seconds <= 0) {
        this.stopCountdown();
        button.disabled = false;
        setLabel(button, 'Retry');
        this.context.announcer.say('You can retry now.');
        return;
      }
      button.disabled = true;
      setLabel(button, `Retry in ${seconds} s`);
    };
    tick();
    this.countdown = setInterval(tick, 250);
  }

  private stopCountdown(): void {
    if (this.countdown !== undefined) clearInterval(this.countdown);
    this.countdown = undefined;
  }
}

/** What a reply sent with only the newest turns says about the rest. */
export function omittedTurnsNote(count: number): string {
  const [they, them] = count === 1 ? ['it', 'it'] : ['they', 'them'];
  return `Sent without ${oldestTurnsText(count)} of the chat: ${they} did not fit the model's context window, so the model did not see ${them}.`;
}
