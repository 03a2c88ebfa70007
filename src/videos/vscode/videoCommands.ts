// What the video feature loads on first use (the build bundles it into dist/videoCommands.js, apart from the
// activation bundle): the commands (submit, download, preview, …), the preview panels, the finish notification and
// the chat's /video port.
// The Video Jobs view and the job store load at activation, so polling resumes at once.
export { chatVideoPort } from '../core/chatVideos';
export { downloadResult } from '../core/download';
export { evictOverQuota } from '../core/keptQuota';
export { ResultKeeper } from '../core/resultKeeper';
export { resultFetchOptionsFor } from './sharedCommands';
export { vscodeCommandUi } from './commandUi';
export { VideoJobCommands } from './videoJobsCommands';
export { VideoPreviewPanels } from './videoPreviewPanel';
