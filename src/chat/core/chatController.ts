// Runs one chat session: sends its requests through the gateway API, keeps the transcript, and reports every
// change as an event (the panel turns them into webview messages). Streamed output is gathered for a few
// milliseconds, written to the session's journal, and only then reported, so what the user has seen is on disk.
import { accessAdvice, adviceFor } from '../../ui/core/errorAdvice';
import { abortError, ChatSetupError, errorOf } from './replyFailures';
import type { GatewayAccess } from '../../gateway/connection';
import type { ChatDelta, ChatResult } from '../../gateway/types';
import type { ReasoningEffortFormat } from '../../gateway/reasoningEffort';
import type { PaceWait } from '../../gateway/pacer';
import type { Clock, TimerHandle } from '../../util/clock';
import { Emitter, type Disposable, type Event } from '../../util/events';
import {
  applyDelta, emptyAssistantTurn, hasOutput, LIMITS, titleFrom, type AssistantTurn, type ChatSession, type ChatSettings,
  type MediaTurn, NEW_CHAT_TITLE, type ToolCallPiece, type Turn, type TurnDelta, type UserTurn,
} from '../../chatProtocol/session';
import { cleanFinishReason, cleanModelId, cleanToolCallId, cleanToolName, usageFromGateway, withLedgerCost } from '../../chatProtocol/sessionData';
import { clip } from '../../chatProtocol/validate';
import { buildChatRequest } from './request';
import { ThinkingTimer } from '../../chatProtocol/thinking';
import { fitHistory, type FitOptions } from './historyFit';
import type { KeptReply } from './compareRun';
import type { Attachment } from '../../chatProtocol/attachments';
import { hasImages } from './contextPrompt';
import { imageRejectionAdvice } from './imageRejection';
import type { ChatSessionStore } from './sessionStore';
import { ChatSaver, type SendUndo } from './chatSaver';
import type { ChatEvent } from './chatEvent';
import { withApply, type CodeApply } from '../../chatProtocol/codeApply';

export interface ChatControllerDeps {
  store: ChatSessionStore;
  clock: Clock;
  /** The API for the configured gateway, or why there is none. */
  gateway: () => Promise<GatewayAccess>;
  /** The model for a session that has none yet. */
  defaultModel: () => Promise<string | undefined>;
  newId: () => string;
  /** The workspace's instructions for a reply to `history` (a system message), when the chat sends them. */
  instructions?: (history: readonly Turn[]) => Promise<string | undefined>;
  /** How a chosen reasoning effort is sent (the `modelGateway.reasoningEffortFormat` setting). */
  effortFormat?: () => ReasoningEffortFormat;
  /** How long streamed output is gathered before it is journaled and reported. */
  flushIntervalMs?: number;
  /** The usage ledger's cost of a finished call this chat named (usage/core/api.ts's UsageApi.costOf). */
  costOf?: (callId: string) => Promise<number | undefined>;
}

const DEFAULT_FLUSH_MS = 25;

interface Run {
  turn: AssistantTurn;
  abort: AbortController;
  pending: TurnDelta | undefined;
  timer: TimerHandle | undefined;
  finished: Promise<void>;
  thinking: ThinkingTimer;
  sendAnyway?: () => void; // while the request waits long for the rate limit: sends it now
}

export class ChatController implements Disposable {
  private readonly events = new Emitter<ChatEvent>();
  readonly onEvent: Event<ChatEvent> = this.events.event;
  private running: Run | undefined;
  private disposed = false;
  private readonly flushIntervalMs: number;
  private readonly saver: ChatSaver;

  constructor(
    private readonly state: ChatSession,
    private readonly deps: ChatControllerDeps,
  ) {
    this.flushIntervalMs = deps.flushIntervalMs ?? DEFAULT_FLUSH_MS;
    this.saver = new ChatSaver(state, deps.store, (event) => this.events.fire(event), () => this.disposed);
  }

  get session(): Readonly<ChatSession> {
    return this.state;
  }

  /**
   * The one owner of "busy": 'busy' while a reply runs, when nothing new starts (a message, a slash command, a
   * comparison, a kept reply). The bridge, the context and Compare ask here; the page shows it from the turns it is sent.
   */
  get refusal(): 'busy' | undefined {
    return this.running ? 'busy' : undefined;
  }

  get busy(): boolean {
    return this.refusal !== undefined;
  }

  /** Resolves when the reply in progress (if any) has finished and been saved. */
  get idle(): Promise<void> {
    return this.running?.finished ?? Promise.resolve();
  }

  /** Sends a message (with its context) and streams the reply. Returns false (and does nothing) while a reply is running. */
  send(text: string, attachments: readonly Attachment[] = [], options: FitOptions = {}): boolean {
    if (this.refusal || this.disposed || text.trim() === '') return false;
    const undo = this.saver.undoPoint({ text, attachments });
    this.addUserTurn(text, attachments);
    void this.reply(undo, options);
    return true;
  }

  stop(): void {
    this.running?.abort.abort();
  }

  /** Sends the reply's request that waits for the gateway's rate limit now (the user's "Send anyway"). */
  sendAnyway(turnId: string): void {
    if (this.running?.turn.id === turnId) this.running.sendAnyway?.();
  }

  /** Replaces the last reply with a new one (also how a failed or interrupted reply is retried). */
  async regenerate(options: FitOptions = {}): Promise<boolean> {
    await this.stopAndWait();
    const turns = this.state.turns;
    let from = turns.length;
    while (from > 0 && turns[from - 1].role === 'assistant') from--;
    if (from === 0 || this.disposed) return false;
    const undo = this.saver.undoPoint();
    if (from < turns.length) this.removeFrom(from);
    void this.reply(undo, options);
    return true;
  }

  /** Replaces a user message and everything after it, then asks again from there. */
  async editAndResend(turnId: string, text: string, options: FitOptions = {}): Promise<boolean> {
    if (text.trim() === '') return false;
    await this.stopAndWait();
    const index = this.state.turns.findIndex((t) => t.id === turnId && t.role === 'user');
    if (index < 0 || this.disposed) return false;
    // The edited message keeps the context it was sent with.
    const attachments = (this.state.turns[index] as UserTurn).attachments ?? [];
    const undo = this.saver.undoPoint({ text, attachments: [] });
    this.removeFrom(index);
    this.addUserTurn(text, attachments);
    void this.reply(undo, options);
    return true;
  }

  /** Sends the last message again without its images (after a model refused them). */
  async resendWithoutImages(options: FitOptions = {}): Promise<boolean> {
    await this.stopAndWait();
    const index = this.state.turns.findLastIndex((t) => t.role === 'user');
    const turn = this.state.turns[index] as UserTurn | undefined;
    if (!turn || this.disposed || !hasImages(turn)) return false;
    const undo = this.saver.undoPoint();
    this.removeFrom(index);
    this.addUserTurn(turn.content, (turn.attachments ?? []).filter((a) => a.kind !== 'image'));
    void this.reply(undo, options);
    return true;
  }

  /** Adds a question and a reply obtained elsewhere (the one the user kept from a comparison), saved at once. */
  async keepReply(question: { text: string; attachments: readonly Attachment[] }, reply: KeptReply): Promise<boolean> {
    if (this.refusal || this.disposed || question.text.trim() === '') return false;
    const undo = this.saver.undoPoint();
    this.addUserTurn(question.text, question.attachments);
    const turn: AssistantTurn = { ...emptyAssistantTurn(this.deps.newId(), reply.model, this.deps.clock.now()), content: reply.content, status: reply.status, usage: reply.usage, finishReason: reply.finishReason };
    if (reply.error) turn.error = reply.error;
    this.state.turns.push(turn);
    this.touch();
    this.events.fire({ type: 'turnAdded', turn });
    // Kept only once it is on disk: otherwise the comparison stays open, with the reply in it.
    if (!(await this.saveBeforeSend())) return this.saver.takeBack(undo);
    if (!this.disposed) this.events.fire({ type: 'turnFinished', turn });
    return true;
  }

  /** Saves the chat before a request leaves (Compare's too): false, the user told, when it could not be written. */
  saveBeforeSend(): Promise<boolean> {
    return this.saver.saveBeforeSend(this.running?.turn.id);
  }

  async updateSettings(settings: ChatSettings): Promise<void> {
    if (this.disposed) return;
    this.state.settings = { ...settings, stop: [...settings.stop] };
    this.touch();
    this.events.fire({ type: 'settings', settings: this.state.settings });
    await this.persist();
  }

  /**
   * Ends the controller. With `stop`, a running reply is stopped and saved as stopped (the user closed the chat);
   * without it, the reply is left as it is on disk, journal included, as a reload or crash would leave it, and is
   * restored as interrupted.
   */
  async close(options: { stop: boolean }): Promise<void> {
    if (options.stop) {
      await this.stopAndWait();
      this.dispose();
      return;
    }
    this.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    const run = this.running;
    if (run) this.flush(run);
    this.disposed = true;
    run?.abort.abort();
    this.events.dispose();
  }

  /** A title the user chose (Rename, Generate Title); saved at once. */
  async rename(title: string): Promise<void> {
    if (this.disposed || title === this.state.title) return;
    this.state.title = title;
    this.events.fire({ type: 'title', title });
    await this.persist();
  }

  /** Adds a /image, /video or /speak turn and saves it. */
  async addMediaTurn(turn: MediaTurn): Promise<void> {
    if (this.disposed) return;
    this.state.turns.push(turn);
    this.touch();
    this.events.fire({ type: 'turnAdded', turn });
    if (this.state.title === NEW_CHAT_TITLE) {
      this.state.title = titleFrom(turn.content);
      this.events.fire({ type: 'title', title: this.state.title });
    }
    await this.persist();
  }

  /** Saves what became of a reply's code block the user chose to Apply (applied, or discarded in the review). */
  async recordApply(turnId: string, record: CodeApply): Promise<void> {
    const turn = this.state.turns.find((t) => t.id === turnId);
    if (turn?.role !== 'assistant' || this.disposed) return;
    turn.applies = withApply(turn.applies, record);
    await this.persist();
  }

  /** Replaces a media turn by its new state (a result arrived, its job moved on) and saves it; false when it is gone. */
  async updateMediaTurn(turn: MediaTurn): Promise<boolean> {
    const index = this.state.turns.findIndex((t) => t.id === turn.id && t.role === 'media');
    if (index < 0 || this.disposed) return false;
    this.state.turns[index] = turn;
    this.touch();
    this.events.fire({ type: 'turnUpdated', turn });
    await this.persist();
    return true;
  }

  private async stopAndWait(): Promise<void> {
    const run = this.running;
    if (!run) return;
    run.abort.abort();
    await run.finished;
  }

  private addUserTurn(text: string, attachments: readonly Attachment[]): void {
    const turn: UserTurn = { id: this.deps.newId(), role: 'user', createdAt: this.deps.clock.now(), content: text };
    if (attachments.length > 0) turn.attachments = [...attachments];
    this.state.turns.push(turn);
    this.touch();
    this.events.fire({ type: 'turnAdded', turn });
    if (this.state.turns.filter((t) => t.role === 'user').length === 1) {
      this.state.title = titleFrom(text);
      this.events.fire({ type: 'title', title: this.state.title });
    }
  }

  private removeFrom(index: number): void {
    this.state.turns.splice(index);
    this.touch();
    this.events.fire({ type: 'turnsRemoved', fromIndex: index });
  }

  private async reply(undo: SendUndo, options: FitOptions = {}): Promise<void> {
    const turn = emptyAssistantTurn(this.deps.newId(), this.state.settings.model, this.deps.clock.now());
    let finished!: () => void;
    const run: Run = { turn, abort: new AbortController(), pending: undefined, timer: undefined, finished: new Promise((resolve) => (finished = resolve)), thinking: new ThinkingTimer() };
    this.running = run;
    let history = this.state.turns.slice();
    const fit = options.fitWindow === undefined ? undefined : fitHistory(history, this.state.settings, options.fitWindow);
    if (fit) {
      history = history.slice(fit.fromIndex);
      // Said on the reply, saved with it: what the model did not see stays visible afterwards.
      if (fit.omittedTurns > 0) turn.omittedTurns = fit.omittedTurns;
    }
    this.state.turns.push(turn);
    this.touch();
    this.events.fire({ type: 'turnAdded', turn });
    // The question is on disk before it leaves for the gateway; when it cannot be written, nothing is sent.
    if (!(await this.saver.saveBeforeSend(turn.id))) {
      this.running = undefined;
      this.saver.takeBack(undo);
      return finished();
    }
    let origin: string | undefined;
    let profileName: string | undefined;
    try {
      turn.model = await this.modelForReply();
      const access = await this.deps.gateway();
      if (!access.ok) throw new ChatSetupError(accessAdvice(access));
      origin = access.origin;
      profileName = access.profileName;
      if (run.abort.signal.aborted) throw abortError();
      if (fit && !fit.fits) throw new ChatSetupError(adviceFor({ message: `Not sent: even the last message alone (≈${fit.total.toLocaleString('en-US')} tokens) is larger than the model's context window (${fit.window.toLocaleString('en-US')}). Shorten it or remove some of its context.` }));
      const request = buildChatRequest(history, this.state.settings, turn.model, {
        instructions: await this.deps.instructions?.(history),
        effortFormat: this.deps.effortFormat?.(),
      });
      const onPaceWait = (wait: PaceWait | undefined): void => {
        if (!this.disposed && this.running === run) this.events.fire({ type: 'waiting', turnId: turn.id, waitMs: wait ? Math.ceil(wait.waitMs ?? 0) : null, sendAnyway: (run.sendAnyway = wait?.sendAnyway) !== undefined });
      };
      // The reply's id names the call, so its cost can be asked of the usage ledger once it is answered.
      const result = await access.api.chat(request, { surface: 'chat', callId: turn.id, signal: run.abort.signal, onDelta: (delta) => this.receive(run, delta), onPaceWait });
      this.complete(run, result);
      turn.usage = withLedgerCost(turn.usage, await this.deps.costOf?.(turn.id).catch(() => undefined));
    } catch (error) {
      this.fail(run, error, { origin, profile: profileName }, hasImages(history.findLast((t) => t.role === 'user') as UserTurn | undefined));
    } finally {
      await this.finish(run);
      finished();
    }
  }

  private async modelForReply(): Promise<string> {
    if (this.state.settings.model !== '') return this.state.settings.model;
    const model = await this.deps.defaultModel().catch(() => undefined);
    if (!model) {
      const advice = adviceFor({ message: 'No chat model is selected and the gateway listed none. Choose a model at the top of the chat.' });
      throw new ChatSetupError(advice);
    }
    if (this.state.settings.model === '') {
      this.state.settings = { ...this.state.settings, model };
      this.events.fire({ type: 'settings', settings: this.state.settings });
    }
    return model;
  }

  private receive(run: Run, delta: ChatDelta): void {
    if (this.disposed || this.running !== run) return;
    const turn = run.turn;
    run.thinking.note(delta, this.deps.clock.now());
    const pending = (run.pending ??= { turnId: turn.id });
    for (const field of ['content', 'reasoning', 'refusal'] as const) {
      const text = roomFor(turn[field], delta[field]);
      if (!text) continue;
      const piece = { at: turn[field].length, text };
      applyDelta(turn, { turnId: turn.id, [field]: piece });
      const waiting = pending[field];
      if (waiting) waiting.text += text;
      else pending[field] = piece;
    }
    for (const change of delta.toolCalls ?? []) {
      if (!Number.isSafeInteger(change.index) || change.index < 0 || change.index >= LIMITS.toolCalls) continue;
      const args = turn.toolCalls[change.index]?.arguments ?? '';
      const piece: ToolCallPiece = { index: change.index, at: args.length, arguments: roomFor(args, change.arguments) };
      if (change.id) piece.id = cleanToolCallId(change.id);
      if (change.name) piece.name = cleanToolName(change.name);
      if (applyDelta(turn, { turnId: turn.id, toolCalls: [piece] }).gap) continue;
      const calls = (pending.toolCalls ??= []);
      const waiting = calls.find((c) => c.index === piece.index);
      if (!waiting) calls.push(piece);
      else {
        waiting.arguments += piece.arguments;
        if (piece.id) waiting.id = piece.id;
        if (piece.name) waiting.name = piece.name;
      }
    }
    if (run.timer === undefined) run.timer = this.deps.clock.setTimeout(() => this.flush(run), this.flushIntervalMs);
  }

  /** Journals the gathered output, then reports it. */
  private flush(run: Run): void {
    if (run.timer !== undefined) this.deps.clock.clearTimeout(run.timer);
    run.timer = undefined;
    const delta = run.pending;
    run.pending = undefined;
    if (!delta || this.disposed) return;
    this.deps.store.appendJournal(this.state.id, delta);
    this.events.fire({ type: 'delta', delta });
  }

  /** Takes whatever the final result has that the deltas did not bring (a non-streamed answer, a late usage). */
  private absorb(run: Run, result: ChatResult | undefined): void {
    if (!result) return;
    const turn = run.turn;
    const missing: ChatDelta = {};
    for (const field of ['content', 'reasoning', 'refusal'] as const) {
      const full = result[field] ?? '';
      if (full.length > turn[field].length && full.startsWith(turn[field])) missing[field] = full.slice(turn[field].length);
    }
    if (result.toolCalls.length > turn.toolCalls.length) {
      missing.toolCalls = result.toolCalls.slice(turn.toolCalls.length).map((call, i) => ({ index: turn.toolCalls.length + i, id: call.id, name: call.name, arguments: call.arguments }));
    }
    if (Object.keys(missing).length > 0) this.receive(run, missing);
    // Every field is cut to what the session file and the webview accept, here, once: the text is kept whatever
    // the rest of the reply looks like.
    const model = cleanModelId(result.model);
    if (model) turn.model = model;
    const finishReason = cleanFinishReason(result.finishReason);
    if (finishReason) turn.finishReason = finishReason;
    const usage = usageFromGateway(result.usage);
    if (usage) turn.usage = usage;
  }

  private complete(run: Run, result: ChatResult): void {
    this.absorb(run, result);
    run.turn.status = 'complete';
  }

  private fail(run: Run, error: unknown, { origin, profile }: { origin?: string; profile?: string }, sentImages: boolean): void {
    const turn = run.turn;
    this.absorb(run, (error as { partial?: ChatResult } | undefined)?.partial);
    if (run.abort.signal.aborted) {
      turn.status = 'stopped';
      return;
    }
    let advice = adviceFor(error, { origin, profile, model: turn.model || undefined, now: this.deps.clock.now() });
    if (sentImages) advice = imageRejectionAdvice(advice, turn.model);
    turn.status = hasOutput(turn) ? 'interrupted' : 'failed';
    turn.error = errorOf(advice);
  }

  /** Saves the finished reply, then reports it: a reply shown as finished is finished on disk. */
  private async finish(run: Run): Promise<void> {
    const thoughtMs = run.thinking.elapsed(this.deps.clock.now());
    if (thoughtMs !== undefined) run.turn.thoughtMs = thoughtMs;
    this.flush(run);
    if (this.disposed) return;
    this.touch();
    await this.persist();
    if (this.disposed) return;
    this.running = undefined;
    this.events.fire({ type: 'turnFinished', turn: run.turn });
    await this.deps.store.removeJournal(this.state.id, run.turn.id);
  }

  private touch(): void {
    this.state.updatedAt = this.deps.clock.now();
  }

  /** Saves the session, taking in what other windows wrote (chatSaver.ts). */
  private persist(): Promise<void> {
    return this.saver.save(this.running?.turn.id);
  }
}

/** The part of `added` that still fits after `current` (a turn's text never outgrows what a session file holds). */
function roomFor(current: string, added: string | undefined): string {
  if (!added) return '';
  return clip(added, Math.max(0, LIMITS.storedText - current.length));
}
