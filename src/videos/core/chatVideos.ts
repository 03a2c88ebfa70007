// The video feature as the chat's /video port: submits through the Video Jobs store, so the chat's job is the
// tree's job, polled by the same scheduler (one polling window per gateway); the chat only reads it. Pure; the
// chat's port type is matched structurally (the chat and videos folders do not import each other).
import { accessAdvice, adviceFor } from '../../ui/core/errorAdvice';
import type { MissingAccess } from '../../gateway/connection';
import type { VideoDefaults } from '../../settings/settings';
import { displayStatus, isFinalRecord, type VideoJobRecord } from './jobRecord';
import type { JobStore } from './jobStore';
import { videoTypeOfFile } from './download';
import { isSuccessStatus } from './status';
import { answersFromArgument, buildVideoRequest } from './videoRequest';

export interface ChatVideoDeps {
  /** The job store. */
  store(): JobStore;
  /** A profile's gateway (the chat's own); the active profile's without one. */
  access(profile?: string): Promise<{ ok: true; origin: string; profile?: string } | MissingAccess>;
  /** A profile's video defaults (the chat's own, by id or name); the active profile's without one. */
  settings(profile?: string): VideoDefaults;
  reveal(key: string): Promise<void>;
  /** Fires with changed job keys (and those whose result was kept), whichever store is current. */
  onDidChange(listener: (keys: readonly string[]) => void): { dispose(): void };
  /** The copy of the job's result kept before its link expires. */
  keptFile?(key: string): string | undefined;
  /** The folder of those copies. */
  keptFolder?: string;
}

export interface ChatVideoJobState {
  key: string;
  model: string;
  state: 'pending' | 'complete' | 'failed';
  detail: string;
  url?: string;
  keptFile?: string;
  keptContentType?: string;
}

export function chatJobState(record: VideoJobRecord): ChatVideoJobState {
  const base = { key: record.key, model: record.model };
  if (!isFinalRecord(record)) {
    const progress = record.localState === 'uncertain' ? 'the submission may not have reached the gateway: check it in Video Jobs' : displayStatus(record);
    return { ...base, state: record.localState === 'uncertain' ? 'failed' : 'pending', detail: progress };
  }
  const url = record.resultUrls[0];
  if (isSuccessStatus(record.status) && url) return { ...base, state: 'complete', detail: 'completed', url };
  return { ...base, state: 'failed', detail: record.error?.message ?? `The job ended as ${displayStatus(record)}.` };
}

export function chatVideoPort(deps: ChatVideoDeps) {
  return {
    ...(deps.keptFolder && { keptFolder: deps.keptFolder }),
    submit: async (ask: { prompt: string; model?: string; profile?: string; surface?: 'tool' }) => {
      const access = await deps.access(ask.profile);
      if (!access.ok) throw new Error(accessAdvice(access).message);
      const origin = access.origin;
      const settings = deps.settings(ask.profile);
      try {
        const request = buildVideoRequest(answersFromArgument({ prompt: ask.prompt, ...(ask.model && { model: ask.model }) }, settings), settings);
        return chatJobState(await deps.store().submit(origin, request, access.profile, ask.surface));
      } catch (error) {
        throw new Error(adviceFor(error, { origin, model: ask.model }).message, { cause: error });
      }
    },
    job: (key: string) => {
      const record = deps.store().get(key);
      if (!record) return undefined;
      const state: ChatVideoJobState = chatJobState(record);
      const kept = state.state === 'complete' ? deps.keptFile?.(key) : undefined;
      return kept ? { ...state, keptFile: kept, keptContentType: videoTypeOfFile(kept) } : state;
    },
    onDidChange: deps.onDidChange,
    reveal: deps.reveal,
  };
}
