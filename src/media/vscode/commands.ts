// The media feature's command ids, each written once (the ones other folders name come from core/api.ts). Kept apart
// from the feature definition so the view, the panels and the commands name them without importing it.
import { MEDIA_SHARED_COMMANDS } from '../core/api';

export const MEDIA_COMMANDS = {
  generateImage: 'modelGateway.generateImage',
  editImage: 'modelGateway.editImage',
  readSelectionAloud: 'modelGateway.readSelectionAloud',
  synthesizeSpeech: 'modelGateway.synthesizeSpeech',
  transcribeAudio: 'modelGateway.transcribeAudio',
  show: MEDIA_SHARED_COMMANDS.show,
  save: MEDIA_SHARED_COMMANDS.save,
  copy: 'modelGateway.media.copy',
  open: 'modelGateway.media.open',
  remove: 'modelGateway.media.remove',
  clear: 'modelGateway.media.clear',
} as const;

/** The commands the gallery and player pages may run (their links; `enableCommandUris` lists exactly these). */
export const MEDIA_PAGE_COMMANDS = { save: MEDIA_COMMANDS.save, copy: MEDIA_COMMANDS.copy, open: MEDIA_COMMANDS.open } as const;

/** The Media view. */
export const MEDIA_VIEW = 'modelGateway.media';
