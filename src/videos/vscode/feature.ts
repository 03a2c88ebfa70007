// UI adapter: the video feature. At activation it builds the video service (the job store, whose polling resumes once
// its first read of the job folder finds pending jobs, the duration history, the kept copies of finished results and
// their keeper) and the Video Jobs view, which receives it; the commands and previews (videoCommands.ts) load on first
// use, which may be the first job that finishes. Returns the object the chat, the @gateway participant, the gateway
// tools and Delete Profile reach through core/api.ts's VideoApi.
import * as vscode from 'vscode';
import type { ApiKeyStore } from '../../auth/core/api';
import type { ModelCatalogs } from '../../models/core/api';
import { lazyCommands } from '../../ui/vscode/commands';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import type { Clock } from '../../util/clock';
import { lazy } from '../../util/lazy';
import type { Memento } from '../../util/memento';
import type { VideoApi } from '../core/api';
import { WindowPresence } from '../core/windowPresence';
import type { CommandUi } from './commandUi';
import { VIDEO_COMMANDS, VIDEO_JOBS_VIEW } from './commands';
import type { VideoJobCommands } from './videoJobsCommands';
import { VideoJobsView, type ViewOptions } from './videoJobsView';
import type { VideoPreviewPanels } from './videoPreviewPanel';
import { VideoService, type VideoServiceDeps, type VideoServiceOptions } from './videoService';

export type VideoNeeds = Pick<SharedServices, 'context' | 'log' | 'connection' | 'clock' | 'settings' | 'onDidChangeSettings' | 'register' | 'testing' | 'ui'> & {
  keys: Pick<ApiKeyStore, 'onDidChange' | 'get'>;
  models: ModelCatalogs;
};

/** What one instance needs beyond its service: the extension builds one, host tests build more. */
interface InstanceDeps {
  connection: VideoServiceDeps['connection'];
  models: ModelCatalogs;
  settings(profile?: string): ReturnType<VideoServiceDeps['settings']>;
  keyFor(origin: string): Promise<string | undefined>;
  clock: Clock;
}

/** A video service with its view and, on first use, its commands and previews. */
export interface VideoInstance extends vscode.Disposable {
  readonly service: VideoService;
  readonly view: VideoJobsView;
  readonly commands: VideoJobCommands;
  readonly previews: VideoPreviewPanels;
  /** The service's job store (the host tests read it). */
  readonly store: VideoService['store'];
}

function videoInstance(service: VideoService, deps: InstanceDeps, options: ViewOptions & { ui?: CommandUi }): VideoInstance {
  const view = new VideoJobsView(service, deps.connection, { ...options, clock: deps.clock });
  const load = lazy(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const module = require('./videoCommands') as typeof import('./videoCommands');
    const previews = new module.VideoPreviewPanels();
    const ui = options.ui ?? module.vscodeCommandUi;
    const { connection, models, settings, keyFor } = deps;
    return { previews, commands: new module.VideoJobCommands({ service, view, connection, models, settings, keyFor, previews, ui, now: () => deps.clock.now() }) };
  });
  const subscriptions = [
    service.store.onDidFinish((record) => void load().commands.announceFinished(record)),
    service.store.onDidSetAside((batch) => void load().commands.announceSetAside(batch)),
  ];
  return {
    service,
    view,
    get commands() {
      return load().commands;
    },
    get previews() {
      return load().previews;
    },
    get store() {
      return service.store;
    },
    dispose() {
      for (const s of subscriptions) s.dispose();
      load.peek()?.previews.dispose();
      view.dispose();
      service.dispose();
    },
  };
}

export const videosFeature = defineFeature({
  name: 'videos',
  commands: VIDEO_COMMANDS,
  views: [VIDEO_JOBS_VIEW],
  activate({ context, log, keys, connection, models, clock, settings, onDidChangeSettings, register, testing, ui }: VideoNeeds): VideoApi {
    const folder = (name: string) => vscode.Uri.joinPath(context.globalStorageUri, name).fsPath;
    // A round trip to the window: it hangs while a browser tab that was closed leaves this extension host running.
    const presence = new WindowPresence({ clock, ping: () => vscode.commands.executeCommand('setContext', 'modelGateway.windowAttached', true) });
    context.subscriptions.push(presence, new vscode.Disposable(presence.onDidChange((attached) => log.info(attached ? 'The window answers again: video jobs may be polled here.' : 'The window does not answer (closed, or busy): other windows poll the video jobs meanwhile.')).dispose));
    const serviceDeps: VideoServiceDeps = {
      clock,
      connection,
      models,
      settings: (profile?: string) => settings(profile).video,
      onDidChangeSettings,
      onDidChangeKey: keys.onDidChange,
      focus: { focused: () => vscode.window.state.focused, onDidChange: (listener) => vscode.window.onDidChangeWindowState((state) => listener(state.focused)) },
      presence,
      log,
      inform: (text) => void ui().notify('info', text),
      ask: (...args) => ui().ask(...args),
    };
    const instanceDeps: InstanceDeps = { connection, models, settings: serviceDeps.settings, keyFor: (origin) => keys.get(origin), clock };
    const reveal = async (key: string) => {
      await vscode.commands.executeCommand(`${VIDEO_JOBS_VIEW}.focus`);
      await videos.view.reveal(key);
    };
    const service = new VideoService(serviceDeps, { folder: folder('videos'), legacy: { storage: context.globalState }, keptFolder: folder('video-results'), reveal });
    const videos = videoInstance(service, instanceDeps, { treeViewId: VIDEO_JOBS_VIEW, primary: true });
    context.subscriptions.push(videos);
    register(lazyCommands(VIDEO_COMMANDS, () => videos.commands.handlers()));
    if (TEST_BUILD && testing) {
      const hooks: VideoTestHooks = {
        feature: videos,
        /** A separate service, view model and commands (no tree view, no registered commands; kept copies only in a given `keptFolder`) over the given storage. */
        createForTest: (options: VideoTestOptions = {}) => {
          const jobFolder = options.folder ?? folder(options.storageKey ? `videos-test-${options.storageKey.replace(/[^\w-]/g, '_')}` : 'videos');
          const legacy = { storage: options.storage ?? context.globalState, key: options.storageKey };
          const withClock = options.clock ? { ...serviceDeps, clock: options.clock } : serviceDeps;
          return videoInstance(new VideoService(withClock, { folder: jobFolder, legacy, ...(options.keptFolder !== undefined && { keptFolder: options.keptFolder }) }), { ...instanceDeps, clock: withClock.clock }, { primary: false, ui: options.ui });
        },
        runningJobs: (profileId: string) => service.runningJobs(profileId),
      };
      testing.videos = hooks;
    }
    return service;
  },
});

/** What the host tests reach (`testing.videos`). */
export interface VideoTestHooks {
  feature: VideoInstance;
  createForTest(options?: VideoTestOptions): VideoInstance;
  /** What Delete Profile asks. */
  runningJobs(slot: string): number;
}

export interface VideoTestOptions extends Partial<Pick<VideoServiceOptions, 'folder' | 'keptFolder'>> {
  /** Jobs to migrate, as earlier versions kept them in `globalState`. */
  storage?: Memento;
  /** Names the test's own job folder, unless `folder` is given. */
  storageKey?: string;
  ui?: CommandUi;
  /** A fake clock: the service's timers and the tree's ages follow it (bench:memory runs an hour of it). */
  clock?: Clock;
}
