// UI adapter: the video feature's service, built at activation by its feature definition (vscode/feature.ts). It owns
// the job store (one file per job in the global storage folder; polling resumes once the first read of the folder,
// after activation, finds pending jobs), the duration history beside the jobs, the kept copies of finished results and
// the keeper that makes them (loaded, with the video commands, once a finished result waits to be kept). The Video Jobs
// view, the commands and the outside (core/api.ts's VideoApi, through the feature) receive it; none of them builds,
// owns or disposes it.
import * as path from 'node:path';
import type { GatewayConnections } from '../../gateway/connections';
import type { DialectName } from '../../settings/profile';
import type { ModelCatalogs } from '../../models/core/api';
import type { VideoDefaults } from '../../settings/settings';
import type { Clock } from '../../util/clock';
import { Emitter, type Disposable, type Event } from '../../util/events';
import { JsonFile } from '../../util/jsonFile';
import { lazy } from '../../util/lazy';
import type { Logger } from '../../util/logger';
import type { Memento } from '../../util/memento';
import type { AllowedParameters, DialectDecision, VideoApi, VideoAskParameters, VideoJob } from '../core/api';
import { DurationHistory } from '../core/durationHistory';
import type { VideoJobRecord } from '../core/jobRecord';
import { runningJobsOf } from '../core/jobPresentation';
import { JobStore } from '../core/jobStore';
import { KeptFiles } from '../core/keptFiles';
import { lazyApiFor } from '../core/lazyApi';
import type { ResultKeeper } from '../core/resultKeeper';
import type { WindowPresence } from '../core/windowPresence';
import type { UserInterface } from '../../ui/vscode/userInterface';

type VideoCommandsModule = typeof import('./videoCommands');

// The video commands' bundle (the calls, the result keeper), on first use: not at activation.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const videoCommands = lazy(() => require('./videoCommands') as VideoCommandsModule);
// The `auto` dialect's detection, on its first need (a submission, Generate Video, Diagnose Models, Test Connection).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dialectDetection = lazy(() => require('../core/dialects/probes') as typeof import('../core/dialects/probes'));
// The dialect adapters (with the jobs' wire), on the first submission.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const dialects = lazy(() => require('../core/jobWire') as typeof import('../core/jobWire'));
// The lists the detection and the allowed parameters share, on the same first need.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parameterLists = lazy(() => require('../core/dialects/parameterLists') as typeof import('../core/dialects/parameterLists'));

/**
 * What the gateways said about themselves, per profile: the `auto` decisions and the lists they and the allowed
 * parameters read, kept from their first need and shared by every video service of the window (one detection each).
 */
const known: { detector?: import('../core/dialects/probes').DialectDetector; lists?: import('../core/dialects/parameterLists').GatewayLists } = {};

export interface VideoServiceDeps {
  clock: Clock;
  connection: GatewayConnections;
  /** Each profile's model list, for the default video model when none is set. */
  models?: Pick<ModelCatalogs, 'for'>;
  /** A profile's video defaults (by id or name); the active profile's without one. */
  settings(profile?: string): VideoDefaults;
  onDidChangeSettings: Event<void>;
  onDidChangeKey(listener: (origin: string) => void): Disposable;
  /** Whether the window has focus, and when that changes: a focused window polls and announces first. */
  focus: { focused(): boolean; onDidChange: Event<boolean> };
  /** Whether the window still answers (shared by every instance of one window). */
  presence: WindowPresence;
  log: Logger;
  /** Tells the user what was done without asking (the kept copies removed to stay within the quota). */
  inform(text: string): void;
  /** Asks before a first frame outside the workspace is read (the UI seam's modal question). */
  ask?: UserInterface['ask'];
}

export interface VideoServiceOptions {
  /** The job folder (shared by every window). */
  folder: string;
  /** Where earlier versions kept the jobs, moved into the folder once. */
  legacy: { storage: Memento; key?: string };
  /** The kept copies' folder; a service without one keeps no copies (the host tests' extra instances). */
  keptFolder?: string;
  /** Shows a job in the Video Jobs view (the view receives the service, so it is named once both are built). */
  reveal?(key: string): Promise<void>;
}

/** The poll bounds the store keeps to. */
function pollBoundsOf(video: VideoDefaults): { minMs: number; maxMs: number } {
  return { minMs: video.pollMinMs, maxMs: video.pollMaxMs };
}

export class VideoService implements VideoApi, Disposable {
  readonly store: JobStore;
  /** The copies of finished results kept before their links expire (the primary instance's only). */
  readonly kept: KeptFiles | undefined;
  /** How long earlier jobs took, kept beside the jobs (shared with every window through its file). */
  readonly durations: DurationHistory;
  private readonly keptChanged = new Emitter<string[]>();
  /** Fires with the jobs whose kept copy came or went. */
  readonly onDidKeep: Event<string[]> = this.keptChanged.event;
  private keeper: ResultKeeper | undefined;
  private bounds: { minMs: number; maxMs: number };
  private readonly subscriptions: Disposable[] = [];
  private readonly calls = lazy(() => {
    return videoCommands().videoCalls({
      store: this.store,
      access: (profile) => this.deps.connection.access(profile),
      settings: (profile) => this.deps.settings(profile),
      allowed: (model, profile) => this.allowedParameters(model, profile),
      keptFile: (key) => this.kept?.keptFile(key),
      listedModel: (profile) => this.listedModel(profile),
      place: () => videoCommands().readPlace({ ask: this.deps.ask ?? (async () => undefined) }),
    });
  });

  constructor(
    private readonly deps: VideoServiceDeps,
    private readonly options: VideoServiceOptions,
  ) {
    const { clock, connection, log } = deps;
    const video = deps.settings();
    this.bounds = pollBoundsOf(video);
    this.durations = new DurationHistory({ store: new JsonFile(path.join(options.folder, 'durations.json'), undefined, clock), onError: (error) => log.warn(`Video job durations: ${String(error)}`) });
    void this.durations.load();
    this.store = new JobStore({
      clock,
      apiFor: lazyApiFor(connection),
      dialectFor: (profile) => this.dialectFor(profile),
      folder: options.folder,
      legacy: options.legacy,
      scheduler: { minIntervalMs: video.pollMinMs, maxIntervalMs: video.pollMaxMs, history: this.durations },
      presence: deps.presence,
      onPersistError: (error) => log.warn(`Could not save the video jobs: ${error}`),
    });
    this.kept = options.keptFolder === undefined ? undefined : new KeptFiles(options.keptFolder);
    const store = this.store;
    this.subscriptions.push(
      deps.focus.onDidChange((focused) => store.setFocused(focused)),
      // A gateway or key changed, or the profiles did (a profile's URL, a new or deleted profile): the jobs of
      // every profile's current gateway may be polled again.
      connection.onDidChangeClient(() => this.resumeAll()),
      connection.onDidChangeProfiles(() => this.resumeAll()),
      deps.onDidChangeKey((origin) => store.resumeAuth(origin)),
      deps.onDidChangeSettings(() => this.onSettingsChanged()),
      this.keptChanged,
    );
    if (this.kept) this.subscriptions.push(store.onDidChange(() => this.startKeeper()), deps.onDidChangeSettings(() => this.startKeeper()));
    store.setFocused(deps.focus.focused());
  }

  /**
   * The dialect a profile's new job speaks, and its base URL: the profile's setting, or for `auto` what the gateway
   * says about itself (dialect detection, asked once per profile and kept).
   */
  private dialectFor(profile: string | undefined): Promise<{ dialect: DialectName; baseUrl: string }> | { dialect: DialectName; baseUrl: string } | undefined {
    const connections = this.deps.connection;
    const connection = connections.connectionFor(profile);
    const baseUrl = connection?.baseUrl;
    if (!connection || !baseUrl) return undefined;
    const setting = connections.allProfiles.find((p) => p.id === connection.profile)?.dialect;
    if (setting === undefined || setting === 'auto') return this.dialect(connection.profile).then((decided) => ({ dialect: decided.dialect, baseUrl }));
    return { dialect: dialects().resolveDialect(setting, baseUrl).dialect, baseUrl };
  }

  get keptFolder(): string {
    return this.kept?.folder ?? '';
  }

  async reveal(key: string): Promise<void> {
    await this.options.reveal?.(key);
  }

  get pollBoundsMs(): { minMs: number; maxMs: number } {
    return { ...this.bounds };
  }

  /** The lanes shown: each profile's key slot on its current origin (see laneOf). */
  lanes(): Set<string> {
    const connections = this.deps.connection;
    // A profile without a URL has no slot: the undefined member matches no job.
    // Retired profiles too: their jobs still run, and are shown until they finish.
    return new Set(connections.allProfiles.map((p) => connections.slotOf(p.id)!));
  }

  /** Every profile's jobs on the gateway it uses now (a switch hides none); a job of an origin no profile uses stays hidden. */
  visibleJobs(): VideoJobRecord[] {
    return this.store.jobs(this.lanes());
  }

  /** The first video model a profile's gateway lists (its cached list, loaded if none is known yet). */
  async listedModel(profile?: string): Promise<string | undefined> {
    const id = profile === undefined ? this.deps.connection.active.id : this.deps.connection.profile(profile)?.id;
    const models = id === undefined ? undefined : this.deps.models?.for(id);
    return (await models?.models('video'))?.[0]?.id;
  }

  submit(ask: { prompt: string } & VideoAskParameters, call?: { profile?: string }): Promise<VideoJob> {
    return this.calls().submit(ask, call);
  }

  job(key: string): VideoJob | undefined {
    return this.calls().job(key);
  }

  onDidChange(listener: (keys: readonly string[]) => void): Disposable {
    const changes = [this.store.onDidChange((change) => listener(change.keys)), this.keptChanged.event((keys) => listener(keys))];
    return { dispose: () => changes.forEach((c) => c.dispose()) };
  }

  runningJobs(profileId: string): number {
    return runningJobsOf(this.store.jobs(), profileId);
  }

  async dialect(profile?: string): Promise<DialectDecision> {
    const { found, target, probe } = await this.reach(profile);
    known.detector ??= new (dialectDetection().DialectDetector)();
    return known.detector.resolve({ ...target, dialect: found.dialect }, known.lists!.memo(target, probe));
  }

  async allowedParameters(model: string, profile?: string): Promise<AllowedParameters | undefined> {
    try {
      const decision = await this.dialect(profile);
      const { target, probe } = await this.reach(profile);
      return await known.lists!.allowed(target, decision.dialect, model, probe);
    } catch {
      // Nothing could be read: nothing is checked, as for a gateway that lists nothing.
      return undefined;
    }
  }

  /** A profile (the active one without), its base URL and its probe of the gateway's lists. */
  private async reach(profile?: string) {
    const { connection } = this.deps;
    await connection.ready;
    const found = connection.profile(profile) ?? connection.active;
    known.lists ??= new (parameterLists().GatewayLists)();
    const target = { id: found.id, baseUrl: connection.connectionFor(found.id)?.baseUrl ?? '' };
    return { found, target, probe: dialectDetection().gatewayProbe(() => connection.access(found.id)) };
  }

  jobsReady(): Promise<void> {
    return this.store.ready;
  }

  onDidChangeJobs(listener: () => void): Disposable {
    return this.store.onDidChange(() => listener());
  }


  private resumeAll(): void {
    for (const lane of this.lanes()) this.store.resumeAuth(lane);
  }

  private onSettingsChanged(): void {
    const next = pollBoundsOf(this.deps.settings());
    if (next.minMs === this.bounds.minMs && next.maxMs === this.bounds.maxMs) return;
    this.bounds = next;
    this.store.setPollIntervals({ minIntervalMs: next.minMs, maxIntervalMs: next.maxMs });
  }

  /** The keeper loads (with the video commands) once a finished result waits to be kept, not at activation. */
  private startKeeper(): void {
    const kept = this.kept;
    const { clock, connection, settings, log } = this.deps;
    if (!kept || this.keeper || settings().keptQuotaBytes <= 0 || !this.store.jobs().some((r) => kept.waits(r, clock.now()))) return;
    const keeper = videoCommands().startResultKeeper({ folder: kept.folder, clock, jobs: this.store, connection, settings: () => settings(), log, inform: this.deps.inform });
    this.keeper = keeper;
    this.subscriptions.push(keeper.onDidChange((keys) => this.keptChanged.fire(keys)));
  }

  dispose(): void {
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.keeper?.dispose();
    this.store.dispose();
  }
}
