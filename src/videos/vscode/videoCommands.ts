// What the video feature loads on first use (the build bundles it into dist/videoCommands.js, apart from the
// activation bundle): the commands (submit, download, preview, …), the preview panels, the finish notification, the
// result keeper and the video service's calls from the outside (submit, a job's state, where a first frame is read).
// The video service (its job store), and the Video Jobs view load at activation, so polling resumes at once.
export { videoCalls } from '../core/videoCalls';
export { readPlace } from '../../ui/vscode/readPlace';
export { startResultKeeper } from './resultKeeping';
export { vscodeCommandUi } from './commandUi';
export { VideoJobCommands } from './videoJobsCommands';
export { VideoPreviewPanels } from './videoPreviewPanel';
