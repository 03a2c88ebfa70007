// The one home of rate-limit timing: a pacing state per gateway origin and key (paceState.ts decides), requests
// waiting their turn in it, the timers that let them go, and the news the status bar and the connection read.
// Every request of every feature passes `admit` (the client calls it before each attempt), so chat, Compare,
// media and polling share one budget (a model's own budgets hold only that model's requests); windows share it
// through the pace file.
import type { Clock, TimerHandle } from '../util/clock';
import { Emitter, type Disposable, type Event } from '../util/events';
import type { Headers } from './retry';
import { applyEntry, entryMatters, entryOf, PaceFile } from './paceFile';
import type { PaceKey } from './paceKey';
import { admit, decide, emptyPaceState, modelsPressed, nextChangeAt, observeAnswer, observeRefusal, settled, summarize, type PacePriority, type PaceState, type PaceSummary } from './paceState';
import { readRateLimitHeaders } from './rateLimitHeaders';

/** The pacer, sharing its state through the file at `filePath` when given (pacing.ts loads this file on first use). */
export function createPacer(clock: Clock, filePath?: string): Pacer {
  return new Pacer(clock, filePath === undefined ? undefined : new PaceFile(filePath, clock));
}

/** A wait longer than this offers to send anyway: the pacing only foresees, the gateway's own 429 decides. */
export const SEND_ANYWAY_AFTER_MS = 60_000;

/** What a waiting request tells its caller: how long (ms, undefined while waiting for an answer in flight), and why. */
export interface PaceWait {
  waitMs: number | undefined;
  reason: 'blocked' | 'empty' | 'learned' | 'slowing' | 'turn';
  /** Given when the wait is over a minute: lets this request go now, the gateway answering for its limit. */
  sendAnyway?: () => void;
}

/** What a request asks of the pacing: its priority, its cancel signal, and who wants to hear about a wait. */
export interface PaceRequest {
  priority?: PacePriority;
  /** The model the request is about: budgets its answer states are that model's, and only that model's hold it. */
  model?: string;
  signal?: AbortSignal;
  /** Called when the request starts or changes waiting, and with undefined when it goes. */
  onWait?: (wait: PaceWait | undefined) => void;
}

/** A request let through: its answer's headers, or its end without any, settle it. */
export interface PaceTicket {
  answered(status: number, headers: Headers): void;
  done(): void;
}

/** The pacing one client gets, bound to its origin and key. */
export interface RequestPacing {
  admit(request: PaceRequest): Promise<PaceTicket>;
}

/** The summary in wall time, for what is shown. */
export type PaceNews =
  | { kind: 'waiting'; until: number; reason: 'blocked' | 'empty' | 'learned'; unit?: 'requests' | 'tokens' }
  | { kind: 'slowing'; unit: 'requests' | 'tokens'; left: number; resetAt: number };

interface Waiter extends PaceRequest {
  priority: PacePriority;
  resolve(ticket: PaceTicket): void;
  reject(reason: unknown): void;
  told: string | undefined;
  onAbort?: () => void;
  /** The user chose to send it anyway: it goes at the next look, whatever the pacing foresaw. */
  forced?: boolean;
}

interface Slot {
  key: PaceKey;
  state: PaceState;
  waiters: Waiter[];
  timer: TimerHandle | undefined;
  news: string;
  /** Wall time of the figures held, to tell whether the shared file's are newer. */
  observedAt: number;
  /** Whether the last entry this window wrote (or read) asked something of others: then a healthy one replaces it. */
  sharedMatters: boolean;
}

export class Pacer implements Disposable {
  private readonly slots = new Map<string, Slot>();
  private readonly changed = new Emitter<string>();
  /** Fires with a key id when what `news(id)` says changes. */
  readonly onDidChange: Event<string> = this.changed.event;
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    private readonly file?: PaceFile,
  ) {}

  forKey(key: PaceKey): RequestPacing {
    return { admit: (request) => this.admit(key, request) };
  }

  /** What the status bar says for this key, in wall time. */
  news(id: string): PaceNews | undefined {
    const slot = this.slots.get(id);
    if (!slot) return undefined;
    return this.wallNews(summarize(slot.state, this.clock.monotonic()));
  }

  /** A 429 seen only as an error (a fake client's, or one reported from outside): its wait. */
  refused(key: PaceKey, retryAfterMs: number | undefined): void {
    const slot = this.slot(key);
    observeRefusal(slot.state, retryAfterMs, this.clock.monotonic());
    this.changedSlot(slot, true);
  }

  async admit(key: PaceKey, request: PaceRequest): Promise<PaceTicket> {
    const slot = this.slot(key);
    await this.pull(slot);
    const { signal } = request;
    if (signal?.aborted) throw signal.reason;
    return new Promise<PaceTicket>((resolve, reject) => {
      const waiter: Waiter = { ...request, priority: request.priority ?? 'foreground', resolve, reject, told: undefined };
      if (signal) {
        waiter.onAbort = () => {
          slot.waiters = slot.waiters.filter((w) => w !== waiter);
          waiter.onWait?.(undefined);
          reject(signal.reason);
          this.pump(slot);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      slot.waiters.push(waiter);
      this.pump(slot);
    });
  }

  private slot(key: PaceKey): Slot {
    let slot = this.slots.get(key.id);
    if (!slot) {
      slot = { key, state: emptyPaceState(), waiters: [], timer: undefined, news: '', observedAt: 0, sharedMatters: false };
      this.slots.set(key.id, slot);
    }
    return slot;
  }

  /** Lets through every waiter that may go now, tells the others how long, and arms the next look. */
  private pump(slot: Slot): void {
    if (this.disposed) return;
    const now = this.clock.monotonic();
    for (const waiter of [...slot.waiters]) {
      const decision = decide(slot.state, waiter.priority, now, waiter.model);
      if (decision.go || waiter.forced) {
        slot.waiters = slot.waiters.filter((w) => w !== waiter);
        if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
        admit(slot.state, waiter.priority, now, waiter.model);
        if (waiter.told !== undefined) waiter.onWait?.(undefined);
        waiter.resolve(this.ticket(slot, waiter.model));
        continue;
      }
      const waitMs = decision.until === undefined ? undefined : Math.max(0, decision.until - now);
      const wait: PaceWait = { waitMs, reason: decision.reason };
      if (waitMs !== undefined && waitMs > SEND_ANYWAY_AFTER_MS) wait.sendAnyway = () => this.sendAnyway(slot, waiter);
      const told = `${decision.reason}:${decision.until ?? ''}`;
      if (told !== waiter.told) {
        waiter.told = told;
        waiter.onWait?.(wait);
      }
    }
    this.arm(slot, now);
    this.announce(slot);
  }

  private sendAnyway(slot: Slot, waiter: Waiter): void {
    if (!slot.waiters.includes(waiter)) return;
    waiter.forced = true;
    this.pump(slot);
  }

  private ticket(slot: Slot, model: string | undefined): PaceTicket {
    let open = true;
    const close = (): boolean => {
      if (!open) return false;
      open = false;
      settled(slot.state);
      return true;
    };
    return {
      answered: (status, headers) => {
        if (!close()) return;
        const reading = readRateLimitHeaders(headers, this.clock.now());
        observeAnswer(slot.state, status, reading, this.clock.monotonic(), model);
        slot.observedAt = this.clock.now();
        this.changedSlot(slot, true);
      },
      done: () => {
        if (close()) this.pump(slot);
      },
    };
  }

  private changedSlot(slot: Slot, observed: boolean): void {
    this.pump(slot);
    if (observed) this.push(slot);
  }

  /** The earliest moment a waiter may go or the news changes by itself. */
  private arm(slot: Slot, now: number): void {
    if (slot.timer !== undefined) this.clock.clearTimeout(slot.timer);
    slot.timer = undefined;
    let at = nextChangeAt(slot.state, now);
    for (const waiter of slot.waiters) {
      const decision = decide(slot.state, waiter.priority, now, waiter.model);
      if (!decision.go && decision.until !== undefined && (at === undefined || decision.until < at)) at = decision.until;
    }
    if (at === undefined) return;
    slot.timer = this.clock.setTimeout(() => {
      slot.timer = undefined;
      this.pump(slot);
    }, Math.max(0, at - now));
  }

  private announce(slot: Slot): void {
    const summary = summarize(slot.state, this.clock.monotonic());
    const news = summary ? JSON.stringify(summary) : '';
    if (news === slot.news) return;
    slot.news = news;
    this.changed.fire(slot.key.id);
  }

  private wallNews(summary: PaceSummary | undefined): PaceNews | undefined {
    if (!summary) return undefined;
    const wall = (mono: number): number => this.clock.now() + (mono - this.clock.monotonic());
    return summary.kind === 'waiting' ? { ...summary, until: wall(summary.until) } : { ...summary, resetAt: wall(summary.resetAt) };
  }

  /** Takes in another window's newer figures for this key, when the shared file changed. */
  private async pull(slot: Slot): Promise<void> {
    const entries = await this.file?.readIfChanged();
    const entry = entries?.get(slot.key.id);
    if (!entry || entry.origin !== slot.key.origin || entry.observedAt <= slot.observedAt) return;
    applyEntry(slot.state, entry, this.clock.now(), this.clock.monotonic());
    slot.observedAt = entry.observedAt;
    slot.sharedMatters = entryMatters(entry);
  }

  /** Shares this key's figures when they ask something of other windows, or end what they last asked. */
  private push(slot: Slot): void {
    if (!this.file) return;
    const entry = entryOf(slot.key.origin, slot.state, this.clock.now(), this.clock.monotonic());
    const now = this.clock.monotonic();
    const matters = entryMatters(entry) && (summarize(slot.state, now) !== undefined || modelsPressed(slot.state, now));
    if (!matters && !slot.sharedMatters) return;
    slot.sharedMatters = matters;
    void this.file.write(slot.key.id, matters ? entry : undefined);
  }

  /** Settles when what was shared so far is on disk (tests and a clean shutdown). */
  written(): Promise<void> {
    return this.file?.idle() ?? Promise.resolve();
  }

  dispose(): void {
    this.disposed = true;
    for (const slot of this.slots.values()) {
      if (slot.timer !== undefined) this.clock.clearTimeout(slot.timer);
      for (const waiter of slot.waiters) {
        if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
        waiter.reject(new Error('The gateway connection was closed.'));
      }
    }
    this.slots.clear();
    this.changed.dispose();
  }
}
