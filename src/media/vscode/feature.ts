// UI adapter: the media feature: images, speech and transcription. The media service (which owns the Media history, one file per
// entry in the global storage folder) and the Media view are built at activation; the gallery, the player, the
// commands and the service's calls to the gateway (mediaCommands.ts) on first use. Returns the service, which the
// chat, the @gateway participant and the gateway tools reach through core/api.ts's MediaApi.
import * as vscode from 'vscode';
import type { ModelCatalogs } from '../../models/core/api';
import { lazyCommands } from '../../ui/vscode/commands';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import { lazy } from '../../util/lazy';
import type { MediaApi } from '../core/api';
import type { MediaCoreDeps } from '../core/mediaGeneration';
import { MediaService } from '../core/mediaService';
import { MEDIA_COMMANDS, MEDIA_VIEW } from './commands';
import { MediaHistoryView } from './mediaHistoryView';

export type MediaNeeds = Pick<SharedServices, 'context' | 'log' | 'connection' | 'clock' | 'settings' | 'register' | 'testing'> & {
  models: ModelCatalogs;
};

export const mediaFeature = defineFeature({
  name: 'media',
  commands: MEDIA_COMMANDS,
  views: [MEDIA_VIEW],
  activate({ context, log, connection, models, clock, settings, register, testing }: MediaNeeds): MediaApi {
    // A chat's /image and /speak ask under the chat's profile (by id or name): its default models and its own list.
    const catalogOf = (profile?: string) => (profile === undefined ? models : models.for(connection.profile(profile)?.id ?? profile));
    const service: MediaService = new MediaService(
      {
        folder: vscode.Uri.joinPath(context.globalStorageUri, 'media').fsPath,
        clock,
        limit: () => settings().media.historyLimit,
        onError: (error, what) => log.warn(`Media history: ${what} failed: ${String(error)}`),
      },
      { calls: () => loaded().calls, save: (entry, index) => loaded().items.save({ entry, index }) },
    );
    const core: MediaCoreDeps = { history: service.history, connection, models: { load: (profile) => catalogOf(profile).load() }, settings: (profile) => settings(profile).media, dialect: (profile) => connection.profile(profile)?.dialect };
    const view = new MediaHistoryView(service, MEDIA_VIEW);
    const loaded = lazy(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const module = require('./mediaCommands') as typeof import('./mediaCommands');
      const panels = new module.MediaPanels(service.history, { extensionUri: context.extensionUri, log });
      const ui = module.vscodeUserInterface;
      const commandDeps = { core, panels, reveal: (id: string) => view.reveal(id), ui, now: () => clock.now() };
      const transcription = { ...core, dialectSetting: (profile?: string) => connection.profile(profile)?.dialect };
      return {
        panels,
        calls: module.mediaCalls(core, () => module.editPlace(ui, service.history), transcription),
        generateImage: new module.GenerateImageCommand(commandDeps),
        editImage: new module.EditImageCommand({ ...commandDeps, history: service.history }),
        speech: new module.SpeechCommands(commandDeps),
        transcribe: new module.TranscribeCommand({ core: transcription, ui }),
        items: new module.MediaItemCommands({ history: service.history, panels, settings: core.settings, selection: () => view.selection(), ui }),
      };
    });
    context.subscriptions.push({
      dispose: () => {
        loaded.peek()?.panels.dispose();
        view.dispose();
        service.dispose();
      },
    });
    register(
      lazyCommands(MEDIA_COMMANDS, () => ({
        generateImage: (argument?: unknown) => loaded().generateImage.run(argument),
        transcribeAudio: (argument?: unknown) => loaded().transcribe.run(argument),
        editImage: (argument?: unknown) => loaded().editImage.run(argument),
        ...loaded().speech.handlers(),
        ...loaded().items.handlers(),
      })),
    );
    if (TEST_BUILD && testing) {
      const hooks: MediaTestHooks = {
        service,
        history: service.history,
        view,
        get panels() {
          return loaded().panels;
        },
      };
      testing.media = hooks;
    }
    return service;
  },
});

/** What the host tests reach (`testing.media`). */
export interface MediaTestHooks {
  service: MediaService;
  history: MediaService['history'];
  view: MediaHistoryView;
  readonly panels: import('./mediaPanel').MediaPanels;
}
