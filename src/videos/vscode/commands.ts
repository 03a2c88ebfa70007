// The video feature's command ids, each written once (the ones other folders name come from core/api.ts). Kept apart
// from the feature definition so the tree and the commands name them without importing it.
import { VIDEO_SHARED_COMMANDS } from '../core/api';

export const VIDEO_COMMANDS = {
  generateVideo: 'modelGateway.generateVideo',
  refreshAll: 'modelGateway.videos.refreshAll',
  clearFinished: 'modelGateway.videos.clearFinished',
  refresh: 'modelGateway.videos.refresh',
  openResult: 'modelGateway.videos.openResult',
  preview: VIDEO_SHARED_COMMANDS.preview,
  download: 'modelGateway.videos.download',
  copyUrl: 'modelGateway.videos.copyUrl',
  copyJobId: 'modelGateway.videos.copyJobId',
  resubmit: 'modelGateway.videos.resubmit',
  checkSubmission: 'modelGateway.videos.checkSubmission',
  showError: 'modelGateway.videos.showError',
  remove: 'modelGateway.videos.remove',
  cancelOnGateway: 'modelGateway.videos.cancelOnGateway',
} as const;

/** The Video Jobs view. */
export const VIDEO_JOBS_VIEW = 'modelGateway.videoJobs';
