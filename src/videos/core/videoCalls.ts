// The video feature's calls from the outside (core/api.ts's VideoApi): a submission goes through the Video Jobs
// store, so the chat's or a tool's job is the tree's job, polled by the same scheduler (one polling window per
// gateway); the outside only reads it. Loaded on first use, with the video commands. Pure.
import { accessAdvice, AdvisedError, adviceFor } from '../../ui/core/errorAdvice';
import type { MissingAccess } from '../../gateway/connection';
import type { VideoDefaults } from '../../settings/settings';
import type { AllowedParameters, VideoAskParameters, VideoJob } from './api';
import { allowedAnswers } from './dialects/allowedParameters';
import { readFirstFrame } from './firstFrame';
import type { ReadPlace } from '../../util/consentedRead';
import { displayStatus, isFinalRecord, type VideoJobRecord } from './jobRecord';
import type { JobStore } from './jobStore';
import { videoTypeOfFile } from './download';
import { isSuccessStatus } from './dialects/status';
import { answersFromArgument, buildVideoRequest } from './videoRequest';

export interface VideoCallDeps {
  store: Pick<JobStore, 'submit' | 'get'>;
  /** A profile's gateway (by id or name); the active profile's without one. */
  access(profile?: string): Promise<{ ok: true; origin: string; profile?: string } | MissingAccess>;
  /** A profile's video defaults (by id or name); the active profile's without one. */
  settings(profile?: string): VideoDefaults;
  /** What the gateway allows for a model under a profile (VideoApi.allowedParameters); nothing is checked without it. */
  allowed?(model: string, profile?: string): Promise<AllowedParameters | undefined>;
  /** The copy of the job's result kept before its link expires. */
  keptFile?(key: string): string | undefined;
  /** The first video model a profile's gateway lists: the default when neither the ask nor the settings name one. */
  listedModel?(profile?: string): Promise<string | undefined>;
  /** Where a first frame's file is read from, and who says yes to one outside the workspace. */
  place?(): Promise<ReadPlace & { firstFolder?: string }>;
}

const noPlace = async (): Promise<ReadPlace> => ({ roots: [], confirm: async () => false });

export function videoJobOf(record: VideoJobRecord): VideoJob {
  const base = { key: record.key, model: record.model };
  if (!isFinalRecord(record)) {
    const progress = record.localState === 'uncertain' ? 'the submission may not have reached the gateway: check it in Video Jobs' : displayStatus(record);
    return { ...base, state: record.localState === 'uncertain' ? 'failed' : 'pending', detail: progress };
  }
  const url = record.resultUrls[0];
  if (isSuccessStatus(record.status) && url) return { ...base, state: 'complete', detail: 'completed', url };
  return { ...base, state: 'failed', detail: record.error?.message ?? `The job ended as ${displayStatus(record)}.` };
}

export function videoCalls(deps: VideoCallDeps) {
  return {
    submit: async (ask: { prompt: string } & VideoAskParameters, call: { profile?: string; surface?: 'tool' } = {}): Promise<VideoJob> => {
      const access = await deps.access(call.profile);
      if (!access.ok) throw new AdvisedError(accessAdvice(access));
      const origin = access.origin;
      const settings = deps.settings(call.profile);
      try {
        // No model is built in: the ask's, the profile's or settings' choice, else the first the gateway lists.
        const { prompt, duration, resolution, aspectRatio } = ask;
        const model = ask.model || settings.model || (await deps.listedModel?.(call.profile).catch(() => undefined));
        const answers = answersFromArgument({ prompt, ...(model && { model }), ...(duration !== undefined && { duration }), ...(resolution && { resolution }), ...(aspectRatio && { aspectRatio }) }, settings);
        if (ask.firstFrame) answers.firstFrame = await readFirstFrame(ask.firstFrame, deps.place ?? noPlace);
        // A default outside what the gateway allows is fitted to it; a value asked for is refused before sending.
        const allowed = await deps.allowed?.(answers.model, call.profile);
        const request = buildVideoRequest(allowedAnswers(answers, allowed, { duration: duration !== undefined, resolution: !!resolution }), settings);
        return videoJobOf(await deps.store.submit(origin, request, access.profile, call.surface));
      } catch (error) {
        throw new AdvisedError(adviceFor(error, { origin, model: ask.model }), { cause: error });
      }
    },
    job: (key: string): VideoJob | undefined => {
      const record = deps.store.get(key);
      if (!record) return undefined;
      const state = videoJobOf(record);
      const kept = state.state === 'complete' ? deps.keptFile?.(key) : undefined;
      return kept ? { ...state, keptFile: kept, keptContentType: videoTypeOfFile(kept) } : state;
    },
  };
}
