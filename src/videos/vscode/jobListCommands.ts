// UI adapter: keeping the Video Jobs list: Refresh Job, Refresh All, Remove from List, Clear Finished.
import { targetOf, type VideoCommandContext } from './sharedCommands';
import { isFinalRecord } from '../core/jobRecord';
import { quoted, statusText } from '../core/jobPresentation';
import { pausedForKey } from '../core/errors';
import { adviceFor } from '../../ui/core/errorAdvice';

/** Polls one job now; says why not when it is not followed. */
export function refreshJob(ctx: VideoCommandContext, argument?: unknown): boolean {
  const target = targetOf(ctx, argument);
  if (!target) return false;
  if (ctx.service.store.refresh(target.record.key)) return true;
  const why = target.record.localState === 'uncertain' ? 'its submission is uncertain; use Check Submission' : `it is ${statusText(target.record)}`;
  void ctx.ui.notify('info', `The video job ${quoted(target.record)} is not being checked: ${why}.`);
  return false;
}

export function refreshAll(ctx: VideoCommandContext): void {
  const origin = ctx.connection.origin;
  // The active profile's lane: its jobs wait for its key.
  const lane = ctx.connection.slotOf();
  const refused = origin && lane && ctx.service.store.authFailure(lane);
  if (origin && refused) ctx.ui.advise(pausedForKey(refused, origin));
  ctx.service.store.refreshAll();
  ctx.view.refresh();
}

/** Forgets a job (asking first while it is unfinished). The only way a job leaves the list, apart from Clear Finished. */
export async function removeJob(ctx: VideoCommandContext, argument?: unknown): Promise<boolean> {
  const target = targetOf(ctx, argument);
  if (!target) return false;
  const { record } = target;
  if (!isFinalRecord(record)) {
    const remove = 'Remove';
    const detail = `It is ${statusText(record)}. The gateway may still finish it, but this window stops following it and its result link is lost.`;
    if ((await ctx.ui.ask('warning', `Remove the unfinished video job ${quoted(record)}?`, detail, remove)) !== remove) return false;
  }
  const removed = await ctx.service.store.remove(record.key);
  ctx.previews.closeJob(record.key);
  return removed;
}

/**
 * Cancels (deletes) a job on the gateway where its dialect can, once confirmed; where it cannot, says so at once,
 * asks nothing and sends nothing.
 */
export async function cancelOnGateway(ctx: VideoCommandContext, argument?: unknown): Promise<boolean> {
  const target = targetOf(ctx, argument);
  if (!target) return false;
  const { record } = target;
  const cancel = 'Cancel on Gateway';
  const detail = 'The gateway stops the job (or deletes it and its result); the job stays in the list as cancelled.';
  let confirmed = false;
  const confirm = async () => (confirmed = (await ctx.ui.ask('warning', `Cancel the video job ${quoted(record)} on the gateway?`, detail, cancel)) === cancel);
  try {
    const why = await ctx.service.store.cancelOnGateway(record.key, confirm);
    if (why) void ctx.ui.notify('info', `The video job ${quoted(record)} cannot be cancelled on the gateway: ${why}.`);
    return why === undefined && confirmed;
  } catch (error) {
    ctx.ui.advise(adviceFor(error, { origin: record.origin, model: record.model }));
    return false;
  }
}

/** Removes the finished jobs of the current gateway; returns how many. */
export async function clearFinished(ctx: VideoCommandContext): Promise<number> {
  const finished = ctx.service.visibleJobs().filter(isFinalRecord);
  for (const record of finished) {
    await ctx.service.store.remove(record.key);
    ctx.previews.closeJob(record.key);
  }
  ctx.ui.status(finished.length === 0 ? 'No finished video jobs to clear.' : `Cleared ${finished.length} finished video job${finished.length === 1 ? '' : 's'}.`);
  return finished.length;
}
