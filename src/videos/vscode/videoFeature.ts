// UI adapter: everything of the video feature one window (or one host test) needs: the Video Jobs view and its
// store, built at once, and the commands and previews (videoCommands.ts), loaded on first use.
import type * as vscode from 'vscode';
import type { CommandUi } from './commandUi';
import type { Memento } from '../../util/memento';
import type { JobStore } from '../core/jobStore';
import type { VideoJobCommands } from './videoJobsCommands';
import type { VideoPreviewPanels } from './videoPreviewPanel';
import { lazy, type Lazy } from '../../util/lazy';
import { VideoJobsView, type VideoFeatureDeps, type ViewOptions } from './videoJobsView';

type Subscription = { dispose(): void };

type VideoCommandsModule = typeof import('./videoCommands');
type ChatVideoPortDeps = Parameters<VideoCommandsModule['chatVideoPort']>[0];

/**
 * Everything of the video feature one instance needs; the extension builds one, host tests build more. The view
 * and the store (polling resumes at activation) are built at once; the commands and previews (videoCommands.ts)
 * on first use, which may be the first job that finishes.
 */
export class VideoFeature implements vscode.Disposable {
  readonly view: VideoJobsView;
  private readonly load: Lazy<{ module: VideoCommandsModule; commands: VideoJobCommands; previews: VideoPreviewPanels }>;
  private readonly finishSubscription: Subscription;

  constructor(deps: VideoFeatureDeps, options: ViewOptions & { ui?: CommandUi }) {
    this.view = new VideoJobsView(deps, { ...options, onSetAside: (batch) => void this.commands.announceSetAside(batch) });
    const { connection, models, settings, keyFor } = deps;
    this.load = lazy(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const module = require('./videoCommands') as VideoCommandsModule;
      const previews = new module.VideoPreviewPanels();
      const ui = options.ui ?? module.vscodeCommandUi;
      return { module, previews, commands: new module.VideoJobCommands({ view: this.view, connection, models, settings, keyFor, previews, ui }) };
    });
    this.finishSubscription = this.view.store.onDidFinish((record) => void this.commands.announceFinished(record));
  }

  get commands(): VideoJobCommands {
    return this.load().commands;
  }

  get previews(): VideoPreviewPanels {
    return this.load().previews;
  }

  /** The chat's /video port. */
  chatPort(deps: ChatVideoPortDeps): ReturnType<VideoCommandsModule['chatVideoPort']> {
    return this.load().module.chatVideoPort(deps);
  }

  get store(): JobStore {
    return this.view.store;
  }

  dispose(): void {
    this.finishSubscription.dispose();
    this.load.peek()?.previews.dispose();
    this.view.dispose();
  }
}

export interface VideoTestOptions {
  /** The store's folder; by default `videos` in the global storage folder, or a test folder named after `storageKey`. */
  folder?: string;
  /** Jobs to migrate, as earlier versions kept them in `globalState`. */
  storage?: Memento;
  storageKey?: string;
  ui?: CommandUi;
}
