// UI adapter: the media feature: images and speech. The Media history (one file per entry in the global storage
// folder) and the Media view are built at activation; the gallery, the player and the commands (mediaCommands.ts)
// on first use. Returns the chat's /image and /speak port.
import * as vscode from 'vscode';
import type { ChatMediaPort } from '../../chat/core/hub/ports';
import type { ModelCatalogs } from '../../models/core/modelCatalogs';
import { lazyCommands } from '../../ui/vscode/commands';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import { MediaHistory } from '../core/mediaHistory';
import { MediaFeature } from './mediaFeature';

export const MEDIA_COMMANDS = {
  generateImage: 'modelGateway.generateImage',
  readSelectionAloud: 'modelGateway.readSelectionAloud',
  synthesizeSpeech: 'modelGateway.synthesizeSpeech',
  show: 'modelGateway.media.show',
  save: 'modelGateway.media.save',
  copy: 'modelGateway.media.copy',
  open: 'modelGateway.media.open',
  remove: 'modelGateway.media.remove',
  clear: 'modelGateway.media.clear',
} as const;

/** The commands the gallery and player pages may run (their links; `enableCommandUris` lists exactly these). */
export const MEDIA_PAGE_COMMANDS = { save: MEDIA_COMMANDS.save, copy: MEDIA_COMMANDS.copy, open: MEDIA_COMMANDS.open } as const;

const MEDIA_VIEW = 'modelGateway.media';

export type MediaNeeds = Pick<SharedServices, 'context' | 'log' | 'connection' | 'clock' | 'settings' | 'register' | 'testing'> & {
  models: ModelCatalogs;
};

export const mediaFeature = defineFeature({
  name: 'media',
  commands: MEDIA_COMMANDS,
  views: [MEDIA_VIEW],
  activate({ context, log, connection, models, clock, settings, register, testing }: MediaNeeds): { chatPort(): ChatMediaPort } {
    const history = new MediaHistory({
      folder: vscode.Uri.joinPath(context.globalStorageUri, 'media').fsPath,
      clock,
      limit: () => settings().media.historyLimit,
      onError: (error, what) => log.warn(`Media history: ${what} failed: ${String(error)}`),
    });
    // A chat's /image and /speak ask under the chat's profile (by id or name): its default models and its own list.
    const catalogOf = (profile?: string) => (profile === undefined ? models : models.for(connection.profile(profile)?.id ?? profile));
    const media = new MediaFeature(
      { history, connection, models: { load: (profile) => catalogOf(profile).load() }, settings: (profile) => settings(profile).media, log },
      { viewId: MEDIA_VIEW },
    );
    context.subscriptions.push(media);
    register(
      lazyCommands(MEDIA_COMMANDS, () => ({
        generateImage: (argument?: unknown) => media.generateImage.run(argument),
        ...media.speech.handlers(),
        ...media.items.handlers(),
      })),
    );
    if (TEST_BUILD && testing) testing.media = media;
    return { chatPort: () => media.chatPort() };
  },
});
