// UI adapter: the usage feature's working part, loaded on the first gateway call (or the first usage command, or a
// few seconds after activation for the status bar), never during activation: the settings, the ledger, the
// recorder, the status bar, the budget alerts and the confirmation before costly image and video requests.
import * as vscode from 'vscode';
import type { PaidRequest } from '../../gateway/connection';
import type { GatewayConnections } from '../../gateway/connections';
import { callReport } from '../../gateway/callFigures';
import type { FinishedCall } from '../../gateway/callReport';
import type { ModelCatalogs } from '../../models/core/api';
import type { UserInterface } from '../../ui/vscode/userInterface';
import { vscodeSettingsSource } from '../../ui/vscode/vscodeSettings';
import type { Clock } from '../../util/clock';
import { lazy } from '../../util/lazy';
import { DEFAULT_PROFILE_ID, type Profile } from '../../settings/profile';
import type { ProfileRef } from '../core/budget';
import { BudgetMarks } from '../core/budgetMarks';
import { Ledger } from '../core/ledger';
import { PriceBook } from '../core/prices';
import { estimateBeforeSending } from '../core/record';
import { formatUsd } from '../core/summary';
import { accountLine, GatewayAccounts } from '../core/gatewayAccount';
import { GENERATION_ANSWER_LIMIT, generationUrl, lookUpGenerationCost } from '../core/generationCost';
import { fetchResultBytes } from '../../gateway/resultFetch';
import { UsageRecorder } from '../core/usageRecorder';
import { readUsageSettings, type UsageSettings } from '../core/usageSettings';
import type { UsageCommands } from './usageCommands';
import { USAGE_COMMANDS } from './commands';
import { UsageStatusBar } from './usageStatusBar';

// The dashboard, export and clear, on their first run.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const usageCommandsModule = lazy(() => require('./usageCommands') as typeof import('./usageCommands'));


export interface UsageServiceDeps {
  context: vscode.ExtensionContext;
  log: vscode.LogOutputChannel;
  clock: Clock;
  models: ModelCatalogs;
  /** The user seam. */
  ui: UserInterface;
  onDidChangeSettings: vscode.Event<void>;
  /**
   * The profiles: one by its id, the active one without an id (undefined: deleted since); and when another profile
   * becomes active (or the active one's gateway or key changes), the status bar shows its spend.
   */
  connection: Pick<GatewayConnections, 'profile' | 'onDidChangeClient' | 'connectionFor' | 'resultFetchOptions'>;
}

export class UsageService implements vscode.Disposable {
  settings: UsageSettings;
  readonly ledger: Ledger;
  readonly recorder: UsageRecorder;
  readonly statusBar: UsageStatusBar;
  readonly commands: () => UsageCommands;
  /** The gateway's own figures for each profile's key (LiteLLM /key/info, OpenRouter /key and /credits). */
  readonly accounts: GatewayAccounts;
  /** Each profile's prices (by id), rebuilt when its list or the user's setting changes. */
  private readonly books = new Map<string, { snapshot: unknown; user: unknown; prices: PriceBook }>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly deps: UsageServiceDeps) {
    const { context, log, clock } = deps;
    const ui = deps.ui;
    /** A profile by id (the active one without), as the ledger names it; a deleted one by its id. */
    const profileOf = (id?: string) => profileRef(deps.connection.profile(id), id);
    this.settings = this.readSettings();
    this.ledger = new Ledger(context.globalStorageUri.fsPath);
    this.recorder = new UsageRecorder({
      ledger: this.ledger,
      clock,
      settings: () => this.settings,
      prices: (profile) => this.prices(profile),
      profile: profileOf,
      workspace: () => vscode.workspace.name ?? '',
      alerts: new BudgetMarks(this.ledger.folder, clock),
      onBudgetAlert: ({ threshold, spent, budget, profile }) => {
        const show = 'Show Usage';
        void ui.notify('warning', `Model Gateway: ${Math.round(threshold * 100)}% of this month's budget of the profile "${profile.name}" is spent (${formatUsd(spent)} of ${formatUsd(budget)}).`, show).then((choice) => {
          if (choice === show) void vscode.commands.executeCommand(USAGE_COMMANDS.showUsage);
        });
      },
      onError: (error, what) => log.warn(`Usage: ${what} failed: ${error instanceof Error ? error.message : String(error)}`),
      generationCost: async (profile, generationId) => {
        const id = profile ?? this.activeId();
        const baseUrl = deps.connection.connectionFor(id)?.baseUrl;
        if (!baseUrl) return undefined;
        const wait = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
        return lookUpGenerationCost({ fetchJson: (url) => this.fetchJson(id, url, GENERATION_ANSWER_LIMIT), wait }, generationUrl(baseUrl, generationId));
      },
    });
    this.accounts = new GatewayAccounts({
      now: () => clock.now(),
      gatewayOf: (id) => {
        const baseUrl = deps.connection.connectionFor(id)?.baseUrl;
        return baseUrl ? { baseUrl, dialect: deps.connection.profile(id)?.dialect } : undefined;
      },
      fetchJson: (id, url) => this.fetchJson(id, url, ACCOUNT_ANSWER_LIMIT),
    });
    this.statusBar = new UsageStatusBar(() => this.recorder.spend(), USAGE_COMMANDS.showUsage, (error) => log.warn(`Usage: the status bar could not read the ledger: ${String(error)}`));
    this.commands = lazy(() => {
      const built = new (usageCommandsModule().UsageCommands)({
        extensionUri: context.extensionUri,
        ledger: this.ledger,
        ui,
        now: () => clock.now(),
        budget: () => {
          const profile = profileOf();
          const amount = this.recorder.budget(profile);
          return amount === undefined ? undefined : { amount, profile: profile.name };
        },
        profileName: (id) => deps.connection.profile(id)?.name,
        gatewayAccount: { line: () => this.accountLine(), refresh: () => this.refreshAccount(true) },
        onDidRecord: this.recorder.onDidRecord,
        log,
        cleared: () => void this.statusBar.refresh(),
      });
      this.subscriptions.push(built);
      return built;
    });
    this.subscriptions.push(
      deps.onDidChangeSettings(() => this.settingsChanged()),
      this.recorder,
      this.statusBar,
      this.recorder.onDidRecord(() => this.settings.statusBar && void this.statusBar.refresh()),
      // A request of this window is when the gateway's own figures may have moved: asked again, at most every 15 min.
      this.recorder.onDidRecord(() => void this.refreshAccount(false)),
      vscode.window.onDidChangeWindowState((state) => state.focused && this.settings.statusBar && void this.statusBar.refresh()),
      deps.connection.onDidChangeClient(() => {
        // Another profile (or key): its gateway's figures, if known, never the last one's.
        this.statusBar.setGatewayLine(this.accountLine());
        if (this.settings.statusBar) void this.statusBar.refresh();
      }),
    );
  }

  /** A JSON answer of `url` on a profile's gateway, with its key (scoped to its origin), read up to `maxBytes`; a 200 only. */
  private async fetchJson(profile: string, url: string, maxBytes: number): Promise<unknown> {
    const { bytes } = await fetchResultBytes(url, { ...(await this.deps.connection.resultFetchOptions(profile)), maxBytes, accept: 'application/json' });
    return JSON.parse(bytes.toString('utf8')) as unknown;
  }

  /** The active profile's gateway figures as one line, or undefined when it gave none. */
  private accountLine(): string | undefined {
    const account = this.accounts.last(this.activeId());
    return account && accountLine(account);
  }

  /** Asks the active profile's gateway for its figures of the key (rarely, or at once with `force`), then shows them. */
  async refreshAccount(force: boolean): Promise<void> {
    await this.accounts.refresh(this.activeId(), force);
    this.statusBar.setGatewayLine(this.accountLine());
  }

  private activeId(): string {
    return this.deps.connection.profile(undefined)?.id ?? DEFAULT_PROFILE_ID;
  }

  private readSettings(): UsageSettings {
    const settings = readUsageSettings(vscodeSettingsSource());
    for (const problem of settings.problems) this.deps.log.warn(`Usage settings: ${problem}`);
    return settings;
  }

  /**
   * The prices known now for a profile (by id; the active one without): that profile's gateway list as its catalog
   * holds it (the last one given, in this session or an earlier one), the user's setting over it. The list is not
   * asked for here: recording must send nothing of its own (and every surface that picks a model has loaded it).
   */
  async prices(profile?: string): Promise<PriceBook> {
    const id = profile ?? this.activeId();
    const catalog = this.deps.models.for(id);
    const snapshot = catalog.current ?? catalog.known();
    let book = this.books.get(id);
    if (!book || book.snapshot !== snapshot || book.user !== this.settings.prices) {
      book = { snapshot, user: this.settings.prices, prices: PriceBook.fromModels(snapshot?.models.map((m) => m.raw) ?? [], this.settings.prices) };
      this.books.set(id, book);
    }
    return book.prices;
  }

  /** Records a finished call (its caller may ask its cost: recorder.costOf). */
  record(call: FinishedCall): void {
    void this.recorder.record(callReport(call));
  }

  /** Shows the status bar and removes what is past retention (a while after activation). */
  start(): void {
    this.statusBar.setVisible(this.settings.statusBar);
    const days = this.settings.retentionDays;
    void this.ledger
      .prune(this.deps.clock.now(), days)
      .then(({ months, records }) => {
        if (months.length === 0) return;
        // Deleting history is never silent: the log keeps the months, the user is told what went and why.
        const span = months.length === 1 ? months[0] : `${months[0]} to ${months[months.length - 1]}`;
        this.deps.log.info(`Usage: removed ${records} records of ${months.join(', ')} (older than ${days} days, modelGateway.usage.retentionDays).`);
        void this.deps.ui.notify('info', `Model Gateway: removed the usage history of ${span} (${records} ${records === 1 ? 'record' : 'records'}), older than your setting modelGateway.usage.retentionDays (${days} days) keeps.`);
      })
      .catch((error: unknown) => this.deps.log.warn(`Usage: the retention clean-up failed: ${String(error)}`));
  }

  settingsChanged(): void {
    this.settings = this.readSettings();
    this.statusBar.setVisible(this.settings.statusBar);
  }

  /** Asks before an image or video request estimated above the threshold; true sends it. */
  readonly checkPaid = async (call: PaidRequest): Promise<boolean> => {
    const limit = this.settings.confirmAbove;
    if (limit === undefined) return true;
    const image = call.method === 'generateImage';
    const asked = image ? { operation: 'image' as const, request: call.request } : { operation: 'video-submit' as const, request: call.request };
    const estimate = estimateBeforeSending(asked, (await this.prices(call.profile)).priceOf(call.request.model));
    if (estimate === undefined || estimate <= limit) return true;
    const go = image ? 'Generate Image' : 'Generate Video';
    const what = image ? 'image request' : 'video job';
    const answer = await this.deps.ui.ask('warning', `This ${what} is estimated to cost ${formatUsd(estimate)}.`, `Model ${call.request.model}. You asked to confirm requests estimated above ${formatUsd(limit)} (modelGateway.usage.confirmPaidAbove).`, go);
    return answer === go;
  };

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

/** The most of a gateway's answer about its key that is read (they are a few hundred bytes). */
const ACCOUNT_ANSWER_LIMIT = 256 * 1024;

/** What the ledger keeps of a profile; a profile deleted since its request keeps its id as its name. */
function profileRef(profile: Profile | undefined, id: string | undefined): ProfileRef {
  if (!profile) return { id: id ?? DEFAULT_PROFILE_ID, name: id ?? 'Default' };
  return { id: profile.id, name: profile.name, ...(profile.monthlyBudget !== undefined && { monthlyBudget: profile.monthlyBudget }) };
}
