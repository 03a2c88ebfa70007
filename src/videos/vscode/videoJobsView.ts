// UI adapter: keeps the Video Jobs view in step with the video service's job store: the tree, its badge (running
// jobs), its message (rate-limit pause, refused key) and the `modelGateway.videoJobs.empty` context key. The view
// receives the service; it neither builds, owns nor disposes it.
import * as vscode from 'vscode';
import type { GatewayConnections } from '../../gateway/connections';
import { pausedForKey } from '../core/errors';
import { showAdvice } from '../../ui/vscode/notify';
import type { VideoJobsHost } from './sharedCommands';
import { laneOf, type VideoJobRecord } from '../core/jobRecord';
import { slotOrigin } from '../../settings/profile';
import { isRunning, type VideoJobNode } from '../core/jobPresentation';
import type { JobsChange } from '../core/jobStore';
import type { AuthRequired } from '../core/pollScheduler';
import type { Clock } from '../../util/clock';
import type { VideoService } from './videoService';
import { VideoJobsTreeProvider } from './videoJobsTreeView';

type Subscription = { dispose(): void };

export interface ViewOptions {
  /** The contributed view to show the tree in; test instances have none. */
  treeViewId?: string;
  /** Only the primary instance sets context keys and asks for a key when the gateway refuses one. */
  primary: boolean;
  /** What the tree's ages are read from and refreshed by (the service's clock). */
  clock?: Clock;
}

export class VideoJobsView implements VideoJobsHost, vscode.Disposable {
  readonly provider: VideoJobsTreeProvider;
  readonly treeView: vscode.TreeView<VideoJobNode> | undefined;
  private readonly subscriptions: Subscription[] = [];
  /** The value last given to the `modelGateway.videoJobs.empty` context key. */
  private severalProfiles = false;
  private shownEmpty: boolean | undefined;
  /** The store has read its folder (JobStore.ready). */
  private loaded = false;

  constructor(
    private readonly service: Pick<VideoService, 'store' | 'kept' | 'onDidKeep' | 'lanes' | 'visibleJobs'>,
    private readonly connection: GatewayConnections,
    private readonly options: ViewOptions,
  ) {
    this.provider = new VideoJobsTreeProvider({ jobs: () => service.visibleJobs(), get: (key) => this.visibleJob(key), profileLabel: (record) => this.profileLabel(record) }, options.clock);
    const kept = service.kept;
    if (kept) {
      this.provider.keptFile = (key) => kept.keptFile(key);
      this.provider.thumbnailFile = (key) => kept.thumbnailFile(key);
    }
    this.treeView = options.treeViewId ? vscode.window.createTreeView(options.treeViewId, { treeDataProvider: this.provider, showCollapseAll: false }) : undefined;
    const store = service.store;
    this.subscriptions.push(
      store.onDidChange((change: JobsChange) => {
        this.provider.jobsChanged(change.keys);
        this.update();
      }),
      // The poll that met the 429 already told the connection (the status bar's countdown); only the message changes.
      store.onDidChangePause(() => this.update()),
      store.onAuthRequired((required) => this.onAuthRequired(required)),
      service.onDidKeep((keys) => this.provider.jobsChanged(keys)),
      // A gateway or key changed, or the profiles did: which jobs show, and their labels, may change.
      connection.onDidChangeClient(() => this.refresh()),
      connection.onDidChangeProfiles(() => this.refresh()),
    );
    this.update();
    // Until the store has read its folder, "no jobs" would be a guess: the welcome view would flash.
    void store.ready.then(() => {
      this.loaded = true;
      this.update();
    });
  }

  /** Jobs are labelled with their profile's name when more than one profile's jobs are shown (worked out in update()). */
  private profileLabel(record: VideoJobRecord): string | undefined {
    return this.severalProfiles ? this.connection.profile(record.profile ?? 'default')?.name : undefined;
  }

  private visibleJob(key: string): VideoJobRecord | undefined {
    const record = this.service.store.get(key);
    return record && this.service.lanes().has(laneOf(record)) ? record : undefined;
  }

  selection(): readonly VideoJobNode[] {
    return this.treeView?.selection ?? [];
  }

  async reveal(key: string): Promise<void> {
    if (!this.treeView || !this.service.store.get(key)) return;
    await this.treeView.reveal(this.provider.jobNode(key), { select: true, focus: false }).then(undefined, () => undefined);
  }

  /** Re-reads the whole view. */
  refresh(): void {
    this.provider.refresh();
    this.update();
  }

  /** The badge (the shown jobs still running), the message and the context key; the tree refreshes its own elements. */
  private update(): void {
    const jobs = this.service.visibleJobs();
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
    const origin = this.connection.origin;
    const lane = this.connection.slotOf();
    if (!origin || !lane) return undefined;
    const host = new URL(origin).host;
    const pausedUntil = this.service.store.pausedUntil(lane);
    if (pausedUntil !== undefined) return `Rate limited by ${host}: status checks resume at ${new Date(pausedUntil).toLocaleTimeString()}.`;
    const refused = this.service.store.authFailure(lane);
    if (refused) return pausedForKey(refused, origin).message;
    return undefined;
  }

  private onAuthRequired(required: AuthRequired): void {
    this.update();
    // `required.origin` is the lane (a profile on an origin): its jobs wait for that profile's key.
    if (!this.options.primary || !this.service.lanes().has(required.origin)) return;
    void showAdvice(pausedForKey(required.error, slotOrigin(required.origin)), 'warning');
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.treeView?.dispose();
    this.provider.dispose();
  }
}
