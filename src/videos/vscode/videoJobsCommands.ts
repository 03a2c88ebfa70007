// UI adapter: the video commands by id. Each lives in a file of its own or of a small group:
// generateVideoCommand.ts, downloadResultCommand.ts, resultCommands.ts (open, preview, copy), jobListCommands.ts
// (refresh, remove, clear), submissionCommands.ts (uncertain submissions, resubmit), finishedJobCommands.ts (the
// notification when a job ends, Show Error). What they say to or ask of the user goes through CommandUi.
import type { HandlersFor } from '../../ui/vscode/commands';
import type { VIDEO_COMMANDS } from './feature';
import type { VideoJobRecord } from '../core/jobRecord';
import type { VideoCommandContext } from './sharedCommands';
import { downloadResultToWorkspace } from './downloadResultCommand';
import { announceFinished, announceSetAside, showJobError } from './finishedJobCommands';
import type { SetAsideBatch } from '../core/jobStore';
import { generateVideo } from './generateVideoCommand';
import { clearFinished, refreshAll, refreshJob, removeJob } from './jobListCommands';
import { copyJobId, copyResultUrl, openResult, previewResult } from './resultCommands';
import { adoptJobId, checkSubmission, resubmitJob } from './submissionCommands';

export class VideoJobCommands {
  constructor(private readonly ctx: VideoCommandContext) {}

  /** The notification when a job ends (the feature calls it for every job that finishes). */
  readonly announceFinished = (record: VideoJobRecord) => announceFinished(this.ctx, record);
  /** The notice when damaged job files were set aside. */
  readonly announceSetAside = (batch: SetAsideBatch) => announceSetAside(this.ctx, batch);

  readonly generateVideo = (argument?: unknown) => generateVideo(this.ctx, argument);
  readonly refreshAll = () => refreshAll(this.ctx);
  readonly clearFinished = () => clearFinished(this.ctx);
  readonly refresh = (argument?: unknown) => refreshJob(this.ctx, argument);
  readonly openResult = (argument?: unknown) => openResult(this.ctx, argument);
  readonly preview = (argument?: unknown) => previewResult(this.ctx, argument);
  readonly download = (argument?: unknown) => downloadResultToWorkspace(this.ctx, argument);
  readonly copyUrl = (argument?: unknown) => copyResultUrl(this.ctx, argument);
  readonly copyJobId = (argument?: unknown) => copyJobId(this.ctx, argument);
  readonly resubmit = (argument?: unknown) => resubmitJob(this.ctx, argument);
  readonly checkSubmission = (argument?: unknown) => checkSubmission(this.ctx, argument);
  readonly adoptJobId = (key: string, id?: string) => adoptJobId(this.ctx, key, id);
  readonly showError = (argument?: unknown) => showJobError(this.ctx, argument);
  readonly remove = (argument?: unknown) => removeJob(this.ctx, argument);

  handlers(): HandlersFor<typeof VIDEO_COMMANDS> {
    return {
      generateVideo: this.generateVideo,
      refreshAll: this.refreshAll,
      clearFinished: this.clearFinished,
      refresh: this.refresh,
      openResult: this.openResult,
      preview: this.preview,
      download: this.download,
      copyUrl: this.copyUrl,
      copyJobId: this.copyJobId,
      resubmit: this.resubmit,
      checkSubmission: this.checkSubmission,
      showError: this.showError,
      remove: this.remove,
    };
  }

}
