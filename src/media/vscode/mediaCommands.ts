// What the media feature loads on first use (the build bundles it into dist/mediaCommands.js, apart from the
// activation bundle): the gallery and player panels, Generate Image, Edit Image, the speech commands, Transcribe Audio
// File, the Media view's item commands and the media service's calls to the gateway. The service, the Media view and the
// history load at activation.
export { mediaCalls } from '../core/mediaCalls';
export { GenerateImageCommand } from './generateImageCommand';
export { EditImageCommand, editPlace } from './editImageCommand';
export { MediaItemCommands } from './mediaItemCommands';
export { MediaPanels } from './mediaPanel';
export { SpeechCommands } from './speechCommands';
export { TranscribeCommand } from './transcribeCommand';
export { vscodeUserInterface } from '../../ui/vscode/userInterface';
