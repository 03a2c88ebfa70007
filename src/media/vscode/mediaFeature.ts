// UI adapter: the media feature of one window: the history (in the global storage folder), the Media view, the
// gallery and player panels, and the commands. The extension builds one; host tests reach it through the testing
// hooks. The view and the history are built at activation; the panels and commands (mediaCommands.ts) on first use.
import * as vscode from 'vscode';
import type { UserInterface } from '../../ui/vscode/userInterface';
import { lazy, type Lazy } from '../../util/lazy';
import type { Logger } from '../../util/logger';
import type { GenerateImageCommand } from './generateImageCommand';
import type { MediaCoreDeps } from '../core/mediaGeneration';
import type { MediaHistory } from '../core/mediaHistory';
import { MediaHistoryView } from './mediaHistoryView';
import type { MediaItemCommands } from './mediaItemCommands';
import type { MediaPanels } from './mediaPanel';
import type { SpeechCommands } from './speechCommands';

type MediaCommandsModule = typeof import('./mediaCommands');

interface LoadedMedia {
  module: MediaCommandsModule;
  panels: MediaPanels;
  generateImage: GenerateImageCommand;
  speech: SpeechCommands;
  items: MediaItemCommands;
}

export interface MediaFeatureDeps extends Omit<MediaCoreDeps, 'history'> {
  history: MediaHistory;
  log: Logger;
}

export class MediaFeature implements vscode.Disposable {
  readonly view: MediaHistoryView;
  private readonly load: Lazy<LoadedMedia>;

  constructor(
    readonly deps: MediaFeatureDeps,
    options: { viewId?: string; ui?: UserInterface } = {},
  ) {
    this.view = new MediaHistoryView(deps.history, options.viewId);
    this.load = lazy(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const module = require('./mediaCommands') as MediaCommandsModule;
      const panels = new module.MediaPanels(deps.history);
      const ui = options.ui ?? module.vscodeUserInterface;
      const commandDeps = { core: deps, panels, reveal: (id: string) => this.view.reveal(id), ui };
      return {
        module,
        panels,
        generateImage: new module.GenerateImageCommand(commandDeps),
        speech: new module.SpeechCommands(commandDeps),
        items: new module.MediaItemCommands({ history: deps.history, panels, settings: deps.settings, selection: () => this.view.selection(), ui }),
      };
    });
    deps.history.watch();
  }

  get panels(): MediaPanels {
    return this.load().panels;
  }

  get generateImage(): GenerateImageCommand {
    return this.load().generateImage;
  }

  get speech(): SpeechCommands {
    return this.load().speech;
  }

  get items(): MediaItemCommands {
    return this.load().items;
  }

  /** The chat's /image and /speak port. */
  chatPort(): ReturnType<MediaCommandsModule['chatMediaPort']> {
    return this.load().module.chatMediaPort(this.deps, (entry, index) => this.items.save({ entry, index }));
  }

  get history(): MediaHistory {
    return this.deps.history;
  }

  dispose(): void {
    this.load.peek()?.panels.dispose();
    this.view.dispose();
    this.deps.history.dispose();
  }
}
