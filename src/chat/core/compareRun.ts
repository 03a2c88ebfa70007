// Compare: the same question (with the same context and conversation) sent to two or three chat models at once.
// Each reply is gathered on its own with its time to first token, total time and usage; the state is reported
// a few times a second, whole (it is small: a question's worth of replies). Nothing is saved until the user keeps
// one reply, which the chat controller then adds to the thread.
import type { GatewayAccess } from '../../gateway/connection';
import type { PacePriority } from '../../gateway/paceState';
import { accessAdvice, AdvisedError, adviceFor } from '../../ui/core/errorAdvice';
import type { Attachment } from '../../chatProtocol/attachments';
import type { CompareColumn, CompareState } from '../../chatProtocol/messages';
import { LIMITS, type AssistantStatus, type ChatSettings, type TokenUsage, type Turn, type TurnError, type UserTurn } from '../../chatProtocol/session';
import { cleanFinishReason, turnErrorFrom, usageFromGateway, withLedgerCost } from '../../chatProtocol/sessionData';
import { clip } from '../../chatProtocol/validate';
import type { Clock, TimerHandle } from '../../util/clock';
import { Emitter, type Disposable, type Event } from '../../util/events';
import { buildChatRequest } from './request';

export const COMPARE_MODELS = { min: 2, max: 3 } as const;
const REPORT_MS = 100;

export interface CompareQuestion {
  text: string;
  attachments: readonly Attachment[];
}

export interface CompareDeps {
  gateway: () => Promise<GatewayAccess>;
  /** The usage ledger's cost of a finished call this comparison named (usage/core/api.ts's UsageApi.costOf). */
  costOf?: (callId: string) => Promise<number | undefined>;
  clock: Clock;
}

/** How a column's reply joins the thread when kept: with the status and error a reply in the chat would have had. */
export interface KeptStatus {
  status: Extract<AssistantStatus, 'complete' | 'interrupted' | 'stopped'>;
  error?: TurnError;
}

/** A kept reply as the chat adds it to the thread: the column's text and figures, with how it ended. */
export interface KeptReply extends KeptStatus {
  model: string;
  content: string;
  usage: TokenUsage | null;
  finishReason: string | null;
}

export class CompareRun implements Disposable {
  private readonly columns: CompareColumn[];
  /** Why each column failed or broke off, with its actions (the webview is sent only the message). */
  private readonly errors = new Map<CompareColumn, TurnError>();
  private readonly abort = new AbortController();
  private readonly changed = new Emitter<CompareState>();
  readonly onDidChange: Event<CompareState> = this.changed.event;
  private timer: TimerHandle | undefined;
  private disposed = false;
  readonly finished: Promise<void>;

  constructor(
    readonly id: string,
    readonly question: CompareQuestion,
    history: readonly Turn[],
    settings: ChatSettings,
    models: readonly string[],
    private readonly deps: CompareDeps,
  ) {
    this.columns = models.map((model) => ({ model, content: '', status: 'streaming', firstTokenMs: null, totalMs: null, usage: null, finishReason: null, error: '' }));
    const asked: UserTurn = { id: 'compare', role: 'user', createdAt: deps.clock.now(), content: question.text, attachments: [...question.attachments] };
    const turns = [...history, asked];
    this.finished = Promise.all(this.columns.map((column, index) => this.run(column, turns, settings, index === 0 ? 'foreground' : 'extra'))).then(() => this.report());
  }

  get state(): CompareState {
    return { id: this.id, question: this.question.text, columns: this.columns.map((c) => ({ ...c, usage: c.usage ? { ...c.usage } : null })) };
  }

  get done(): boolean {
    return this.columns.every((c) => c.status !== 'streaming');
  }

  column(index: number): CompareColumn | undefined {
    return this.columns[index];
  }

  /** What keeping column `index` puts in the thread; undefined when it has no reply to keep (yet). */
  kept(index: number): KeptStatus | undefined {
    const column = this.columns[index];
    if (!column || column.content === '') return undefined;
    const error = this.errors.get(column);
    if (column.status === 'complete') return { status: 'complete' };
    if (column.status === 'interrupted' && error) return { status: 'interrupted', error };
    if (column.status === 'stopped') return { status: 'stopped' };
    return undefined;
  }

  stop(): void {
    this.abort.abort();
  }

  /** `extra`: a column after the first, which waits its turn while the gateway's budget runs low. */
  private async run(column: CompareColumn, turns: readonly Turn[], settings: ChatSettings, pace: PacePriority): Promise<void> {
    const started = this.deps.clock.now();
    let origin: string | undefined;
    try {
      const access = await this.deps.gateway();
      if (!access.ok) throw new AdvisedError(accessAdvice(access));
      origin = access.origin;
      // The chat's effort level is its model's: another model may not take it (a 400), so a comparison sends none.
      const request = buildChatRequest(turns, { ...settings, reasoningEffort: undefined }, column.model);
      // Named so its cost can be asked of the usage ledger once answered (a comparison's models are distinct).
      const callId = `${this.id}/${column.model}`;
      const result = await access.api.chat(request, {
        surface: 'compare',
        callId,
        signal: this.abort.signal,
        pace,
        onDelta: (delta) => {
          const text = (delta.content ?? '') + (delta.refusal ?? '');
          if (text === '') return;
          column.firstTokenMs ??= this.deps.clock.now() - started;
          column.content = clip(column.content + text, LIMITS.storedText);
          this.scheduleReport();
        },
      });
      if (result.content && result.content.length > column.content.length && result.content.startsWith(column.content)) column.content = clip(result.content, LIMITS.storedText);
      column.usage = withLedgerCost(usageFromGateway(result.usage), await this.deps.costOf?.(callId).catch(() => undefined));
      column.finishReason = cleanFinishReason(result.finishReason);
      column.status = 'complete';
    } catch (error) {
      const advice = adviceFor(error, { origin, model: column.model, now: this.deps.clock.now() });
      // As in the chat: text that arrived before a dropped or stalled stream is kept, marked interrupted with why.
      column.status = this.abort.signal.aborted ? 'stopped' : column.content === '' ? 'failed' : 'interrupted';
      if (column.status !== 'stopped') {
        const error = turnErrorFrom({ message: advice.message, kind: advice.kind, actions: advice.actions, retryAt: advice.retryAt });
        this.errors.set(column, error);
        column.error = error.message;
      }
    } finally {
      column.totalMs = this.deps.clock.now() - started;
      this.scheduleReport();
    }
  }

  private scheduleReport(): void {
    if (this.timer !== undefined || this.disposed) return;
    this.timer = this.deps.clock.setTimeout(() => this.report(), REPORT_MS);
  }

  private report(): void {
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.disposed) this.changed.fire(this.state);
  }

  dispose(): void {
    if (this.disposed) return;
    this.stop();
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer);
    this.disposed = true;
    this.changed.dispose();
  }
}
