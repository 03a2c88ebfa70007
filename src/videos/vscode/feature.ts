// UI adapter: the video feature: the job store (one file per job in the global storage folder; polling resumes at
// activation), the Video Jobs view, and the commands and previews (videoCommands.ts, loaded on first use, which may
// be the first job that finishes). Returns the chat's /video port.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ChatVideoPort } from '../../chat/core/hub/ports';
import type { ModelCatalogs } from '../../models/core/modelCatalogs';
import type { Settings } from '../../settings/settings';
import { lazyCommands } from '../../ui/vscode/commands';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import { JsonFile } from '../../util/jsonFile';
import { formatBytes } from '../../util/bytes';
import type { ApiKeyStore } from '../../auth/core/apiKeyStore';
import { DurationHistory } from '../core/durationHistory';
import { JobStore } from '../core/jobStore';
import { KeptFiles } from '../core/keptFiles';
import type { ResultKeeper } from '../core/resultKeeper';
import { Emitter } from '../../util/events';
import { runningJobsOf } from '../core/jobPresentation';
import { lazyApiFor } from '../core/lazyApi';
import { VideoFeature, type VideoTestOptions } from './videoFeature';
import { WindowPresence } from '../core/windowPresence';

export const VIDEO_COMMANDS = {
  generateVideo: 'modelGateway.generateVideo',
  refreshAll: 'modelGateway.videos.refreshAll',
  clearFinished: 'modelGateway.videos.clearFinished',
  refresh: 'modelGateway.videos.refresh',
  openResult: 'modelGateway.videos.openResult',
  preview: 'modelGateway.videos.preview',
  download: 'modelGateway.videos.download',
  copyUrl: 'modelGateway.videos.copyUrl',
  copyJobId: 'modelGateway.videos.copyJobId',
  resubmit: 'modelGateway.videos.resubmit',
  checkSubmission: 'modelGateway.videos.checkSubmission',
  showError: 'modelGateway.videos.showError',
  remove: 'modelGateway.videos.remove',
} as const;

const VIDEO_JOBS_VIEW = 'modelGateway.videoJobs';

export type VideoNeeds = Pick<SharedServices, 'context' | 'log' | 'connection' | 'clock' | 'settings' | 'onDidChangeSettings' | 'register' | 'testing'> & {
  keys: Pick<ApiKeyStore, 'onDidChange' | 'get'>;
  models: ModelCatalogs;
};

export const videosFeature = defineFeature({
  name: 'videos',
  commands: VIDEO_COMMANDS,
  views: [VIDEO_JOBS_VIEW],
  activate({ context, log, keys, connection, models, clock, settings, onDidChangeSettings, register, testing }: VideoNeeds): { chatPort(): ChatVideoPort; runningJobs(profileId: string): number; jobsReady(): Promise<void>; onDidChangeJobs(listener: () => void): vscode.Disposable } {
    const folder = (name: string) => vscode.Uri.joinPath(context.globalStorageUri, name).fsPath;
    // A round trip to the window: it hangs while a browser tab that was closed leaves this extension host running.
    const presence = new WindowPresence({ clock, ping: () => vscode.commands.executeCommand('setContext', 'modelGateway.windowAttached', true) });
    context.subscriptions.push(presence, new vscode.Disposable(presence.onDidChange((attached) => log.info(attached ? 'The window answers again: video jobs may be polled here.' : 'The window does not answer (closed, or busy): other windows poll the video jobs meanwhile.')).dispose));
    // How long earlier jobs took, kept beside the jobs: one history per job folder, shared by every window.
    const histories = new Map<string, DurationHistory>();
    const historyFor = (jobFolder: string) => {
      let history = histories.get(jobFolder);
      if (!history) {
        history = new DurationHistory({ store: new JsonFile(path.join(jobFolder, 'durations.json')), onError: (error) => log.warn(`Video job durations: ${String(error)}`) });
        histories.set(jobFolder, history);
        void history.load();
      }
      return history;
    };
    const createStore = (video: Settings['video'], options: VideoTestOptions = {}) => {
      const jobFolder = options.folder ?? folder(options.storageKey ? `videos-test-${options.storageKey.replace(/[^\w-]/g, '_')}` : 'videos');
      return new JobStore({
        clock,
        apiFor: lazyApiFor(connection),
        folder: jobFolder,
        legacy: { storage: options.storage ?? context.globalState, key: options.storageKey },
        scheduler: { minIntervalMs: video.pollMinMs, maxIntervalMs: video.pollMaxMs, history: historyFor(jobFolder) },
        presence,
        onPersistError: (error) => log.warn(`Could not save the video jobs: ${error}`),
      });
    };
    const deps = {
      connection,
      models,
      settings: (profile?: string) => settings(profile).video,
      onDidChangeSettings,
      onDidChangeKey: keys.onDidChange,
      keyFor: (origin: string) => keys.get(origin),
      createStore: (video: Settings['video']) => createStore(video),
    };
    const videos = new VideoFeature(deps, { treeViewId: VIDEO_JOBS_VIEW, primary: true });
    context.subscriptions.push(videos);
    register(lazyCommands(VIDEO_COMMANDS, () => videos.commands.handlers()));
    if (TEST_BUILD && testing) {
      testing.videos = {
        feature: videos,
        /** A separate store, view model and commands (no tree view, no registered commands) over the given storage. */
        createForTest: (options: VideoTestOptions = {}) => new VideoFeature({ ...deps, createStore: (video) => createStore(video, options) }, { primary: false, ui: options.ui }),
        /** What Delete Profile asks (see runningJobs below). */
        runningJobs: (profileId: string) => runningJobs(profileId),
      };
    }
    const view = videos.view;
    /**
     * A profile's jobs still running, by its id, on any origin: a profile with such jobs is not deleted (its key checks
     * them). One being submitted counts: its answer is on the way, and it is then polled with that key.
     */
    const runningJobs = (profileId: string) => runningJobsOf(view.store.jobs(), profileId);
    const kept = new KeptFiles(folder('video-results'));
    const keptChanged = new Emitter<string[]>();
    let keeper: ResultKeeper | undefined;
    // The keeper loads (with the video commands) once a finished result waits to be kept, not at activation.
    const startKeeper = () => {
      if (keeper || settings().video.keptQuotaBytes <= 0 || !view.store.jobs().some((r) => kept.waits(r, clock.now()))) return;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const module = require('./videoCommands') as typeof import('./videoCommands');
      keeper = new module.ResultKeeper({
        folder: kept.folder,
        clock,
        jobs: view.store,
        download: async (record, url, directory, stem, signal) => {
          const fetchOptions = await module.resultFetchOptionsFor({ connection }, record);
          return module.downloadResult(url, directory, stem, { ...fetchOptions, signal, maxBytes: settings().video.maxDownloadBytes });
        },
        evict: module.evictOverQuota,
        quotaBytes: () => settings().video.keptQuotaBytes,
        onEvicted: ({ count, bytes, quotaBytes }) => {
          const text = `Model Gateway: removed ${count === 1 ? 'the kept copy of an older video' : `the kept copies of ${count} older videos`} (${formatBytes(bytes)}) to stay within modelGateway.video.keptQuotaMB (${formatBytes(quotaBytes)}). Their links still work until they expire.`;
          log.info(text);
          void vscode.window.showInformationMessage(text);
        },
        onError: (message) => log.warn(message),
      });
      context.subscriptions.push(keeper, keeper.onDidChange((keys) => keptChanged.fire(keys)));
    };
    context.subscriptions.push(keptChanged, view.store.onDidChange(startKeeper), onDidChangeSettings(startKeeper));
    view.attachKept(kept, keptChanged.event);
    return {
      runningJobs,
      /** Settles once the jobs saved before activation are read: until then none looks pending. */
      jobsReady: () => view.store.ready,
      onDidChangeJobs: (listener: () => void) => view.store.onDidChange(() => listener()),
      chatPort: () =>
        videos.chatPort({
          store: () => view.store,
          access: (profile?: string) => connection.access(profile),
          settings: (profile?: string) => settings(profile).video,
          reveal: async (key) => {
            await vscode.commands.executeCommand(`${VIDEO_JOBS_VIEW}.focus`);
            await view.reveal(key);
          },
          onDidChange: (listener) => {
            const changes = [view.store.onDidChange((change) => listener(change.keys)), keptChanged.event((keys) => listener(keys))];
            return { dispose: () => changes.forEach((c) => c.dispose()) };
          },
          keptFile: (key) => kept.keptFile(key),
          keptFolder: kept.folder,
        }),
    };
  },
});
