// UI adapter: a submission whose answer was lost ("uncertain"): the warning, Check Submission, following the job by
// the id the gateway's console shows, and Resubmit (asking first, since it may make a second, paid job).
import { adviceFor } from '../../ui/core/errorAdvice';
import { targetOf, type VideoCommandContext } from './sharedCommands';
import { laneOf, type VideoJobRecord } from '../core/jobRecord';
import { quoted, statusText } from '../core/jobPresentation';
import { removeJob } from './jobListCommands';

/** The notification after a submission turned uncertain, with its two ways forward. */
export async function warnUncertain(ctx: VideoCommandContext, record: VideoJobRecord): Promise<void> {
  const check = 'Check Submission';
  const resubmit = 'Resubmit';
  const choice = await ctx.ui.notify(
    'warning',
    `Submission uncertain: the connection dropped after the video job ${quoted(record)} was sent, so the gateway may or may not have it. It is kept in the list and never resubmitted automatically.`,
    check,
    resubmit,
  );
  if (choice === check) await checkSubmission(ctx, record.key);
  if (choice === resubmit) await resubmitJob(ctx, record.key);
}

export async function resubmitJob(ctx: VideoCommandContext, argument?: unknown): Promise<VideoJobRecord | undefined> {
  const target = targetOf(ctx, argument);
  if (!target) return undefined;
  const { record } = target;
  if (record.localState === 'submitting') {
    void ctx.ui.notify('info', 'This job is still being submitted.');
    return undefined;
  }
  if (record.localState === 'uncertain') {
    const resubmit = 'Resubmit';
    const detail = 'The first request may have reached the gateway; if it did, resubmitting makes a second job (and a second charge). The uncertain entry is replaced by the new job.';
    if ((await ctx.ui.ask('warning', `Resubmit ${quoted(record)}?`, detail, resubmit)) !== resubmit) return undefined;
  }
  try {
    const job = await ctx.ui.withProgress('Resubmitting the video job…', () => ctx.service.store.resubmit(record.key));
    void ctx.view.reveal(job.key);
    if (job.localState === 'uncertain') void warnUncertain(ctx, job);
    return job;
  } catch (error) {
    ctx.ui.advise(adviceFor(error, { origin: record.origin, model: record.model }));
    return undefined;
  }
}

/**
 * The gateway API has no job list, so an uncertain submission cannot be looked up. This says so, checks whether
 * the gateway answers now, and offers the choices: enter the job's id, resubmit, or remove.
 */
export async function checkSubmission(ctx: VideoCommandContext, argument?: unknown): Promise<void> {
  const target = targetOf(ctx, argument);
  if (!target) return;
  const { record } = target;
  if (record.localState !== 'uncertain') {
    void ctx.ui.notify('info', `The video job ${quoted(record)} is ${statusText(record)}; its submission is not in doubt.`);
    return;
  }
  const reachable = await ctx.ui.withProgress(`Checking ${new URL(record.origin).host}…`, async () => {
    const access = await ctx.connection.accessSlot(laneOf(record));
    if (!access.ok) return `There is no API key for ${record.origin} in the job's profile (or the profile no longer uses that gateway).`;
    const api = access.api;
    try {
      await api.listModels();
      return undefined;
    } catch (error) {
      return adviceFor(error, { origin: record.origin }).message;
    }
  });
  const detail = [
    `Sent ${new Date(record.createdAt).toLocaleString()}. ${record.error?.message ?? ''}`.trim(),
    'The connection dropped after the request went out, so the gateway may have created the job. The gateway API has no way to list jobs; if the gateway’s console shows the job, enter its id to follow it here.',
    reachable === undefined ? 'The gateway answers now, so a resubmission should go through.' : `The gateway still does not answer: ${reachable}`,
  ].join('\n\n');
  const enterId = 'Enter Job ID…';
  const resubmit = 'Resubmit';
  const remove = 'Remove from List';
  const choice = await ctx.ui.ask('warning', `Submission uncertain: ${quoted(record)}`, detail, enterId, resubmit, remove);
  if (choice === enterId) await adoptJobId(ctx, record.key);
  if (choice === resubmit) await resubmitJob(ctx, record.key);
  if (choice === remove) await removeJob(ctx, record.key);
}

/** Follows the job the gateway created for an uncertain submission, by the id the user found for it. */
export async function adoptJobId(ctx: VideoCommandContext, key: string, id?: string): Promise<VideoJobRecord | undefined> {
  const jobId =
    id ??
    (await ctx.ui.input({
      title: 'Job ID of the uncertain submission',
      prompt: 'The id the gateway gave the job (its console lists it). The job is checked before it is added.',
      validate: (value) => (value.trim() === '' ? 'Enter the job id.' : /[\s/?#]/.test(value.trim()) ? 'A job id has no spaces, slashes, ? or #.' : undefined),
    }));
  if (!jobId) return undefined;
  try {
    const adopted = await ctx.service.store.adopt(key, jobId);
    void ctx.ui.notify('info', `Following video job ${adopted.id}: ${statusText(adopted)}.`);
    return adopted;
  } catch (error) {
    ctx.ui.advise(adviceFor(error, { origin: ctx.service.store.get(key)?.origin }));
    return undefined;
  }
}
