// UI adapter: the notification when a job ends (Open / Preview for a video, Show Error for a failure) and Show
// Error itself; the notice when damaged job files were set aside.
import * as vscode from 'vscode';
import { targetOf, type VideoCommandContext } from './sharedCommands';
import type { VideoJobRecord } from '../core/jobRecord';
import type { SetAsideBatch } from '../core/jobStore';
import { quoted, statusText } from '../core/jobPresentation';
import { openResult, previewResult } from './resultCommands';
import { isSuccessStatus } from '../core/dialects/status';
import { resubmitJob } from './submissionCommands';

export async function announceFinished(ctx: VideoCommandContext, record: VideoJobRecord): Promise<void> {
  if (!record.localState && isSuccessStatus(record.status)) {
    if (record.resultUrls.length === 0) {
      void ctx.ui.notify('warning', `The video ${quoted(record)} is finished, but the gateway sent no result link.`);
      return;
    }
    const open = 'Open';
    const preview = 'Preview';
    const choice = await ctx.ui.notify('info', `Video ready: ${quoted(record)}`, open, preview);
    if (choice === open) await openResult(ctx, record.key);
    if (choice === preview) await previewResult(ctx, record.key);
    return;
  }
  const show = 'Show Error';
  const reason = record.error?.message ?? `it ended with status ${statusText(record)}`;
  if ((await ctx.ui.notify('error', `Video failed: ${quoted(record)}: ${reason}`, show)) === show) await showJobError(ctx, record.key);
}

export async function showJobError(ctx: VideoCommandContext, argument?: unknown): Promise<void> {
  const target = targetOf(ctx, argument);
  if (!target) return;
  const { record } = target;
  const error = record.error;
  const facts = [
    error ? `${error.message}${error.code ? ` (code ${error.code})` : ''}${error.status !== undefined ? ` (HTTP ${error.status})` : ''}` : `The job ended with status ${statusText(record)} and no error message.`,
    record.id ? `Job ${record.id}, model ${record.model}.` : `Model ${record.model}.`,
    `Submitted ${new Date(record.createdAt).toLocaleString()}${record.completedAt ? `, ended ${new Date(record.completedAt).toLocaleString()}` : ''}.`,
  ];
  const resubmit = 'Resubmit';
  const failed = record.localState === 'uncertain' ? 'may not have been submitted' : 'failed';
  if ((await ctx.ui.ask('error', `The video job ${quoted(record)} ${failed}.`, facts.join('\n'), resubmit)) === resubmit) await resubmitJob(ctx, record.key);
}

/** Said once per batch, by the window that moved the files: where they are, and a way to look at them. */
export async function announceSetAside(ctx: VideoCommandContext, batch: SetAsideBatch): Promise<void> {
  const reveal = 'Reveal Folder';
  const open = 'Open File';
  const message = `Damaged video job files (${batch.files.length}) could not be read and were moved, not deleted, to ${batch.folder}. The other jobs are unaffected.`;
  const choice = await ctx.ui.notify('warning', message, reveal, open);
  if (choice === reveal) await ctx.ui.showFile(vscode.Uri.file(batch.folder), 'os');
  if (choice === open) await ctx.ui.showFile(vscode.Uri.file(batch.files[0]), 'open');
}
