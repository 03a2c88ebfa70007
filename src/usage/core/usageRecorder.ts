// Turns every finished gateway call (the connection publishes each once) into a ledger record (appended by this window to its own file), keeps the
// status bar's figures, and raises the budget alerts. A speech answer that names only its generation has its cost
// looked up afterwards, in the background, and its record amended from estimated to reported. Pure: VS Code's parts
// come in as functions.
import { randomBytes } from 'node:crypto';
import type { GatewayCallReport } from '../../gateway/callReport';
import type { Clock } from '../../util/clock';
import { Emitter, type Event } from '../../util/events';
import { GENERATION_HEADER, generationIdOf } from './generationCost';
import { alertKey, budgetAlert, budgetFor, budgetPeriod, type ProfileRef } from './budget';
import type { AlertMarks } from './budgetMarks';
import type { Ledger } from './ledger';
import type { PriceBook } from './prices';
import { recordOf } from './record';
import type { UsageRecord } from './recordTypes';
import { localMonthStart, spendOf, type Totals } from './summary';
import type { UsageSettings } from './usageSettings';

export interface RecorderDeps {
  ledger: Ledger;
  clock: Clock;
  settings(): UsageSettings;
  /** The prices known now for a profile (by id; the active one without): its gateway's list, the user's setting over it. */
  prices(profile?: string): PriceBook | Promise<PriceBook>;
  /** A profile by its id (the active profile without one): its name for the records, its budget for the alerts. */
  profile(id?: string): ProfileRef;
  /** The workspace's name. */
  workspace(): string;
  /** Which budget alerts were given (shared by the windows: only the window that claims an alert shows it). */
  alerts: AlertMarks;
  onBudgetAlert(alert: { threshold: number; spent: number; budget: number; profile: ProfileRef }): void;
  onError(error: unknown, what: string): void;
  /**
   * The cost (USD) of a generation, looked up on the profile's gateway (generationCost.ts's lookUpGenerationCost:
   * bounded, one retry); undefined when none is found. Absent: nothing is looked up.
   */
  generationCost?(profile: string | undefined, generationId: string): Promise<number | undefined>;
}

/** Named calls whose cost is kept for their caller at most (a chat asks right after its reply). */
const MAX_KEPT_COSTS = 64;

export interface Spend {
  today: Totals;
  month: Totals;
}

export class UsageRecorder {
  readonly #recorded = new Emitter<UsageRecord>();
  /** Fires after a record is on disk. */
  readonly onDidRecord: Event<UsageRecord> = this.#recorded.event;
  readonly #pending = new Set<Promise<unknown>>();
  /** Alert keys known to be given (by any window): no lock is taken for them again. */
  readonly #given = new Set<string>();
  /** The costs of named calls not yet asked for (costOf), in the order they finished. */
  readonly #costs = new Map<string, Promise<number | undefined>>();
  /** Costs being looked up after their record was written (not awaited by `settled`: the record is on disk). */
  readonly #lookups = new Set<Promise<unknown>>();

  constructor(private readonly deps: RecorderDeps) {}

  /**
   * Records one finished call (nothing for calls that are not recorded); never throws. A call its caller named
   * (`callId`) keeps its known cost (USD) for that caller to ask for (costOf), as soon as it is worked out, while the
   * record is still being written: the chat shows the cost beside the reply's tokens without waiting for the disk.
   */
  record(report: GatewayCallReport): Promise<UsageRecord | undefined> {
    if (report.callId === undefined) return this.#track(this.#record(report));
    let resolveCost: (cost: number | undefined) => void = () => undefined;
    this.#keepCost(report.callId, new Promise<number | undefined>((resolve) => (resolveCost = resolve)));
    const run = this.#track(this.#record(report, (record) => resolveCost(record.costSource === 'unknown' ? undefined : record.cost)));
    void run.finally(() => resolveCost(undefined));
    return run;
  }

  /**
   * The known cost (USD) of the call its caller named `callId`, once worked out; undefined when unknown, not
   * recorded, or asked for already (each call's cost is handed out once). Ask after the call has finished.
   */
  costOf(callId: string): Promise<number | undefined> {
    const cost = this.#costs.get(callId);
    this.#costs.delete(callId);
    return cost ?? Promise.resolve(undefined);
  }

  #keepCost(callId: string, cost: Promise<number | undefined>): void {
    this.#costs.delete(callId);
    this.#costs.set(callId, cost);
    // Bounded: a caller that never asks leaves nothing behind for long (the oldest go first).
    for (const oldest of this.#costs.keys()) {
      if (this.#costs.size <= MAX_KEPT_COSTS) break;
      this.#costs.delete(oldest);
    }
  }

  #track(run: Promise<UsageRecord | undefined>): Promise<UsageRecord | undefined> {
    const safe = run.catch((error: unknown) => {
      this.deps.onError(error, 'recording a request');
      return undefined;
    });
    this.#pending.add(safe);
    void safe.finally(() => this.#pending.delete(safe));
    return safe;
  }

  async #record(report: GatewayCallReport, priced?: (record: UsageRecord) => void): Promise<UsageRecord | undefined> {
    // The time and the figures are taken at once, before any await, so they belong to this call.
    const time = this.deps.clock.now();
    const settings = this.deps.settings();
    const profile = this.deps.profile(report.profile);
    const workspace = this.deps.workspace();
    // A request is priced by its own profile's list, whichever profile the window uses now.
    const book = await this.deps.prices(report.profile);
    const record = recordOf(report, { time, profile, workspace, price: report.model ? book.priceOf(report.model) : undefined, costHeader: settings.costHeader });
    if (!record) return undefined;
    priced?.(record);
    const generation = this.deps.generationCost && lookedUpLater(report, record);
    // The id lets the amendment name this record, whichever window reads it.
    if (generation) record.id = randomBytes(8).toString('hex');
    await this.deps.ledger.append(record);
    this.#recorded.fire(record);
    if (record.cost) await this.#checkBudget(profile, settings);
    if (generation) this.#lookUp(record, report.profile, generation);
    return record;
  }

  /** Looks the record's cost up in the background and, when found, amends the record to the reported cost. */
  #lookUp(record: UsageRecord, profileId: string | undefined, generationId: string): void {
    const run = (async () => {
      const cost = await this.deps.generationCost!(profileId, generationId);
      if (cost === undefined) return;
      await this.deps.ledger.amend({ record: record.id!, time: record.time, cost, costSource: 'reported' });
      this.#recorded.fire({ ...record, cost, costSource: 'reported' });
      if (cost > (record.cost ?? 0)) await this.#checkBudget(this.deps.profile(profileId), this.deps.settings());
    })().catch((error: unknown) => this.deps.onError(error, 'looking up a generation\'s cost'));
    this.#lookups.add(run);
    void run.finally(() => this.#lookups.delete(run));
  }

  /**
   * Alerts when this month's spend of the profile (every window's records) passed a threshold of its budget that no
   * window has alerted for yet this month. The marks are claimed under the shared file's lock, so of two windows
   * that see the same threshold passed, only one alerts.
   */
  async #checkBudget(profile: ProfileRef, settings: UsageSettings): Promise<void> {
    const budget = budgetFor(profile, settings.monthlyBudget);
    if (budget === undefined) return;
    const period = budgetPeriod(this.deps.clock.now());
    const { month } = await this.spend(profile);
    const key = (t: number) => alertKey(profile.id, period, t);
    const candidate = budgetAlert(month.cost, budget, (t) => this.#given.has(key(t)));
    if (!candidate) return;
    const claimed = new Set(await this.deps.alerts.claim(candidate.passed.map(key)));
    for (const t of candidate.passed) this.#given.add(key(t));
    const mine = candidate.passed.filter((t) => claimed.has(key(t)));
    if (mine.length === 0) return;
    this.deps.onBudgetAlert({ threshold: Math.max(...mine), spent: month.cost, budget, profile });
  }

  /** The budget that applies to a profile (the active one by default), or undefined for none. */
  budget(profile: ProfileRef = this.deps.profile()): number | undefined {
    return budgetFor(profile, this.deps.settings().monthlyBudget);
  }

  /** Today's and this month's spend of a profile (the active one by default), from every window's records. */
  async spend(profile: ProfileRef = this.deps.profile()): Promise<Spend> {
    const now = this.deps.clock.now();
    const { records } = await this.deps.ledger.read(localMonthStart(now));
    return spendOf(records, profile, now);
  }

  /** Resolves when every record begun so far is written (tests, deactivation). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** Resolves when every cost lookup begun so far has ended (tests). */
  async lookedUp(): Promise<void> {
    while (this.#lookups.size > 0) await Promise.allSettled([...this.#lookups]);
  }

  dispose(): void {
    this.#recorded.dispose();
  }
}

/** The generation to look a finished speech call's cost up by, when the answer named one and reported no cost. */
function lookedUpLater(report: GatewayCallReport, record: UsageRecord): string | undefined {
  if (report.operation !== 'speech' || report.outcome !== 'ok' || record.costSource === 'reported') return undefined;
  return generationIdOf(report.header(GENERATION_HEADER));
}
