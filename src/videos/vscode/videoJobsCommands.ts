// UI adapter: the video commands by id. Each lives in a file of its own or of a small group:
// generateVideoCommand.ts, downloadResultCommand.ts, resultCommands.ts (open, preview, copy), jobListCommands.ts
// (refresh, remove, clear), submissionCommands.ts (uncertain submissions, resubmit), finishedJobCommands.ts (the
// notification when a job ends, Show Error). What they say to or ask of the user goes through CommandUi.
import type { HandlersFor } from '../../ui/vscode/commands';
import type { VIDEO_COMMANDS } from './commands';
import type { VideoJobRecord } from '../core/jobRecord';
import type { VideoCommandContext } from './sharedCommands';
import { downloadResultToWorkspace } from './downloadResultCommand';
import { announceFinished, announceSetAside, showJobError } from './finishedJobCommands';
import type { SetAsideBatch } from '../core/jobStore';
import { generateVideo } from './generateVideoCommand';
import { cancelOnGateway, clearFinished, refreshAll, refreshJob, removeJob } from './jobListCommands';
import { copyJobId, copyResultUrl, openResult, previewResult } from './resultCommands';
import { adoptJobId, checkSubmission, resubmitJob } from './submissionCommands';

export class VideoJobCommands {
  constructor(private readonly ctx: VideoCommandContext) {}

  /** A command that names a job runs once the store has loaded the folder (it is read after activation). */
  private whenReady<A extends unknown[], R>(run: (...args: A) => R): (...args: A) => Promise<R> {
    return async (...args) => {
      await this.ctx.service.store.ready;
      return run(...args);
    };
  }

  /** The notification when a job ends (the feature calls it for every job that finishes). */
  readonly announceFinished = (record: VideoJobRecord) => announceFinished(this.ctx, record);
  /** The notice when damaged job files were set aside. */
  readonly announceSetAside = (batch: SetAsideBatch) => announceSetAside(this.ctx, batch);

  readonly generateVideo = this.whenReady((argument?: unknown) => generateVideo(this.ctx, argument));
  readonly refreshAll = this.whenReady(() => refreshAll(this.ctx));
  readonly clearFinished = this.whenReady(() => clearFinished(this.ctx));
  readonly refresh = this.whenReady((argument?: unknown) => refreshJob(this.ctx, argument));
  readonly openResult = this.whenReady((argument?: unknown) => openResult(this.ctx, argument));
  readonly preview = this.whenReady((argument?: unknown) => previewResult(this.ctx, argument));
  readonly download = this.whenReady((argument?: unknown) => downloadResultToWorkspace(this.ctx, argument));
  readonly copyUrl = this.whenReady((argument?: unknown) => copyResultUrl(this.ctx, argument));
  readonly copyJobId = this.whenReady((argument?: unknown) => copyJobId(this.ctx, argument));
  readonly resubmit = this.whenReady((argument?: unknown) => resubmitJob(this.ctx, argument));
  readonly checkSubmission = this.whenReady((argument?: unknown) => checkSubmission(this.ctx, argument));
  readonly adoptJobId = this.whenReady((key: string, id?: string) => adoptJobId(this.ctx, key, id));
  readonly showError = this.whenReady((argument?: unknown) => showJobError(this.ctx, argument));
  readonly remove = this.whenReady((argument?: unknown) => removeJob(this.ctx, argument));
  readonly cancelOnGateway = this.whenReady((argument?: unknown) => cancelOnGateway(this.ctx, argument));

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
      cancelOnGateway: this.cancelOnGateway,
    };
  }

}
