// UI adapter: keeps the Video Jobs view in step with the job store: the tree, its badge (running jobs), its
// message (rate-limit pause, refused key), the `modelGateway.videoJobs.empty` context key, window focus, and the
// poll settings, which the live store takes as they change.
import type { ModelCatalog } from '../../models/core/modelCatalog';
import * as vscode from 'vscode';
import type { GatewayConnections } from '../../gateway/connections';
import { pausedForKey } from '../core/errors';
import type { VideoDefaults } from '../../settings/settings';
import { showAdvice } from '../../ui/vscode/notify';
import type { VideoJobsHost } from './sharedCommands';
import { laneOf, type VideoJobRecord } from '../core/jobRecord';
import { slotOrigin } from '../../settings/profile';
import { isRunning, type VideoJobNode } from '../core/jobPresentation';
import type { JobsChange, JobStore, SetAsideBatch } from '../core/jobStore';
import type { KeptFiles } from '../core/keptFiles';
import type { AuthRequired } from '../core/pollScheduler';
import { VideoJobsTreeProvider } from './videoJobsTreeView';

type Subscription = { dispose(): void };

export interface VideoFeatureDeps {
  connection: GatewayConnections;
  /** The shared, cached model list. */
  models: Pick<ModelCatalog, 'load'>;
  settings(): VideoDefaults;
  onDidChangeSettings: vscode.Event<void>;
  onDidChangeKey(listener: (origin: string) => void): Subscription;
  keyFor(origin: string): Promise<string | undefined>;
  createStore(video: VideoDefaults): JobStore;
}

export interface ViewOptions {
  /** The contributed view to show the tree in; test instances have none. */
  treeViewId?: string;
  /** Only the primary instance sets context keys and asks for a key when the gateway refuses one. */
  primary: boolean;
  /** Damaged job files the store set aside. */
  onSetAside?(batch: SetAsideBatch): void;
}

function pollBoundsOf(video: VideoDefaults): { minMs: number; maxMs: number } {
  return { minMs: video.pollMinMs, maxMs: video.pollMaxMs };
}

export class VideoJobsView implements VideoJobsHost, vscode.Disposable {
  readonly provider: VideoJobsTreeProvider;
  readonly treeView: vscode.TreeView<VideoJobNode> | undefined;
  readonly store: JobStore;
  /** The poll bounds the store keeps to. */
  private bounds: { minMs: number; maxMs: number };
  private readonly subscriptions: Subscription[] = [];
  /** The value last given to the `modelGateway.videoJobs.empty` context key. */
  private severalProfiles = false;
  private shownEmpty: boolean | undefined;
  private keptFiles: KeptFiles | undefined;
  /** The store has read its folder (JobStore.ready). */
  private loaded = false;

  constructor(
    private readonly deps: VideoFeatureDeps,
    private readonly options: ViewOptions,
  ) {
    this.bounds = pollBoundsOf(deps.settings());
    this.store = deps.createStore(deps.settings());
    this.provider = new VideoJobsTreeProvider({ jobs: () => this.visibleJobs(), get: (key) => this.visibleJob(key), profileLabel: (record) => this.profileLabel(record) });
    this.treeView = options.treeViewId ? vscode.window.createTreeView(options.treeViewId, { treeDataProvider: this.provider, showCollapseAll: false }) : undefined;
    const store = this.store;
    this.subscriptions.push(
      store.onDidChange((change: JobsChange) => {
        this.provider.jobsChanged(change.keys);
        this.update();
      }),
      // The poll that met the 429 already told the connection (the status bar's countdown); only the message changes.
      store.onDidSetAside((batch) => this.options.onSetAside?.(batch)),
      store.onDidChangePause(() => this.update()),
      store.onAuthRequired((required) => this.onAuthRequired(required)),
      vscode.window.onDidChangeWindowState((state) => store.setFocused(state.focused)),
      // A gateway or key changed, or the profiles did (a profile's URL, a new or deleted profile).
      deps.connection.onDidChangeClient(() => this.onClientChanged()),
      deps.connection.onDidChangeProfiles(() => this.onClientChanged()),
      deps.onDidChangeKey((origin) => store.resumeAuth(origin)),
      deps.onDidChangeSettings(() => this.onSettingsChanged()),
    );
    store.setFocused(vscode.window.state.focused);
    this.update();
    // Until the store has read its folder, "no jobs" would be a guess: the welcome view would flash.
    void store.ready.then(() => {
      this.loaded = true;
      this.update();
    });
  }

  /** The gateway whose jobs are shown: the configured one. */
  get origin(): string | undefined {
    return this.deps.connection.origin;
  }

  get pollBoundsMs(): { minMs: number; maxMs: number } {
    return { ...this.bounds };
  }

  /** Every profile's jobs on the gateway it uses now (a switch hides none); a job of an origin no profile uses stays hidden. */
  visibleJobs(): VideoJobRecord[] {
    return this.store.jobs(this.lanes());
  }

  /** The lanes shown: each profile's key slot on its current origin (see laneOf). */
  private lanes(): Set<string> {
    const connections = this.deps.connection;
    // A profile without a URL has no slot: the undefined member matches no job.
    // Retired profiles too: their jobs still run, and are shown until they finish.
    return new Set(connections.allProfiles.map((p) => connections.slotOf(p.id)!));
  }

  /** Jobs are labelled with their profile's name when more than one profile's jobs are shown (worked out in update()). */
  private profileLabel(record: VideoJobRecord): string | undefined {
    return this.severalProfiles ? this.deps.connection.profile(record.profile ?? 'default')?.name : undefined;
  }

  private visibleJob(key: string): VideoJobRecord | undefined {
    const record = this.store.get(key);
    return record && this.lanes().has(laneOf(record)) ? record : undefined;
  }

  selection(): readonly VideoJobNode[] {
    return this.treeView?.selection ?? [];
  }

  async reveal(key: string): Promise<void> {
    if (!this.treeView || !this.store.get(key)) return;
    await this.treeView.reveal(this.provider.jobNode(key), { select: true, focus: false }).then(undefined, () => undefined);
  }

  get kept(): KeptFiles | undefined {
    return this.keptFiles;
  }

  /** Shows which results are kept on disk; `onDidKeep` fires with the jobs whose copy came or went. */
  attachKept(files: KeptFiles, onDidKeep: (listener: (keys: string[]) => void) => Subscription): void {
    this.keptFiles = files;
    this.provider.keptFile = (key) => files.keptFile(key);
    this.subscriptions.push(onDidKeep((keys) => this.provider.jobsChanged(keys)));
    this.provider.refresh();
  }

  /** Re-reads the whole view. */
  refresh(): void {
    this.provider.refresh();
    this.update();
  }

  /** The badge (the shown jobs still running), the message and the context key; the tree refreshes its own elements. */
  private update(): void {
    const jobs = this.visibleJobs();
    this.severalProfiles = new Set(jobs.map((r) => r.profile)).size > 1;
    if (this.treeView) {
      const running = jobs.filter(isRunning).length;
      this.treeView.badge = running > 0 ? { value: running, tooltip: `${running} video job${running === 1 ? '' : 's'} running` } : undefined;
      this.treeView.message = this.message();
    }
    const empty = jobs.length === 0;
    if (this.options.primary && this.loaded && empty !== this.shownEmpty) {
      this.shownEmpty = empty;
      void vscode.commands.executeCommand('setContext', 'modelGateway.videoJobs.empty', empty);
      // The positive form for the walkthrough's completion event (an unset key reads as "not empty" there).
      void vscode.commands.executeCommand('setContext', 'modelGateway.hasVideoJobs', !empty);
    }
  }

  private message(): string | undefined {
    const origin = this.origin;
    const lane = this.deps.connection.slotOf();
    if (!origin || !lane) return undefined;
    const host = new URL(origin).host;
    const pausedUntil = this.store.pausedUntil(lane);
    if (pausedUntil !== undefined) return `Rate limited by ${host}: status checks resume at ${new Date(pausedUntil).toLocaleTimeString()}.`;
    const refused = this.store.authFailure(lane);
    if (refused) return pausedForKey(refused, origin).message;
    return undefined;
  }

  private onAuthRequired(required: AuthRequired): void {
    this.update();
    // `required.origin` is the lane (a profile on an origin): its jobs wait for that profile's key.
    if (!this.options.primary || !this.lanes().has(required.origin)) return;
    void showAdvice(pausedForKey(required.error, slotOrigin(required.origin)), 'warning');
  }

  private onClientChanged(): void {
    // A gateway or key changed: the jobs of every profile's current gateway may be polled again.
    for (const lane of this.lanes()) this.store.resumeAuth(lane);
    this.refresh();
  }

  private onSettingsChanged(): void {
    const next = pollBoundsOf(this.deps.settings());
    if (next.minMs === this.bounds.minMs && next.maxMs === this.bounds.maxMs) return;
    this.bounds = next;
    this.store.setPollIntervals({ minIntervalMs: next.minMs, maxIntervalMs: next.maxMs });
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.store.dispose();
    this.treeView?.dispose();
    this.provider.dispose();
  }
}
