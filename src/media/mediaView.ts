// UI adapter: the media feature of one window: the history (in the global storage folder), the Media view, the
// gallery and player panels, and the commands. The extension builds one; host tests reach it through the testing
// hooks.
import * as vscode from 'vscode';
import type { Logger } from '../util/logger';
import { GenerateImageCommand } from './generateImageCommand';
import type { MediaCoreDeps } from './mediaGeneration';
import type { MediaHistory } from './mediaHistory';
import { MediaHistoryView } from './mediaHistoryView';
import { MediaItemCommands } from './mediaItemCommands';
import { MediaPanels } from './mediaPanel';
import { SpeechCommands } from './speechCommands';

export interface MediaFeatureDeps extends Omit<MediaCoreDeps, 'history'> {
  history: MediaHistory;
  log: Logger;
}

export class MediaFeature implements vscode.Disposable {
  readonly view: MediaHistoryView;
  readonly panels: MediaPanels;
  readonly generateImage: GenerateImageCommand;
  readonly speech: SpeechCommands;
  readonly items: MediaItemCommands;

  constructor(
    readonly deps: MediaFeatureDeps,
    options: { viewId?: string } = {},
  ) {
    this.view = new MediaHistoryView(deps.history, options.viewId);
    this.panels = new MediaPanels(deps.history);
    const commandDeps = { core: deps, panels: this.panels, reveal: (id: string) => this.view.reveal(id) };
    this.generateImage = new GenerateImageCommand(commandDeps);
    this.speech = new SpeechCommands(commandDeps);
    this.items = new MediaItemCommands({ history: deps.history, panels: this.panels, settings: deps.settings, selection: () => this.view.selection() });
    deps.history.watch();
  }

  get history(): MediaHistory {
    return this.deps.history;
  }

  handlers(): Record<string, (argument?: unknown) => unknown> {
    return {
      'modelGateway.generateImage': (argument) => this.generateImage.run(argument),
      ...this.speech.handlers(),
      ...this.items.handlers(),
    };
  }

  dispose(): void {
    this.panels.dispose();
    this.view.dispose();
    this.deps.history.dispose();
  }
}
