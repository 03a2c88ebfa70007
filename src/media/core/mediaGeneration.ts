// The media core every caller shares (the commands here, and the chat): ask the gateway for images or speech, fetch
// image links, check that what arrived really is an image or audio within the size limit, and keep it in the history.
// Pure Node (no `vscode`); failures are GatewayErrors from the client or MediaErrors from here, both read by
// ui/errorAdvice's adviceFor.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { accessAdvice, type ErrorAdvice } from '../../ui/core/errorAdvice';
import type { GatewayAccess } from '../../gateway/connection';
import { describeBytes, sniffImage, type AudioType } from '../../gateway/mediaTypes';
import { fetchResultBytes, ResultFetchError, type OpenResultOptions } from '../../gateway/resultFetch';
import type { CatalogSnapshot } from '../../models/core/api';
import type { MediaDefaults } from '../../settings/settings';
import type { DialectSetting } from '../../settings/profile';
import type { Model } from '../../gateway/types';
import { GrowingAudioFile, type AudioStart } from './growingAudio';
import { imageRouteOf } from './imageRoute';
import type { MediaCall } from './api';
import type { MediaEntry } from './mediaEntry';
import type { MediaHistory, NewMediaFile } from './mediaHistory';
import { writeFileAtomic } from '../../util/atomicFile';
import { buildImageRequest, buildSpeechRequest, chooseModel, type ImageAsk, type SpeechAsk } from './mediaRequest';

export type MediaErrorCode = 'missing_access' | 'no_model' | 'not_image' | 'too_large' | 'fetch_failed' | 'storage';

export class MediaError extends Error {
  override readonly name = 'MediaError';
  constructor(
    readonly code: MediaErrorCode,
    message: string,
    /** What to show when the gateway URL or key is missing. */
    readonly advice?: ErrorAdvice,
  ) {
    super(message);
  }
}

/** What the core needs from the rest of the extension (GatewayConnection, ModelCatalog, the history, settings). */
export interface MediaCoreDeps {
  connection: {
    readonly origin: string | undefined;
    /** A profile's gateway (by id or name); the active profile's without one. */
    access(profile?: string): Promise<GatewayAccess>;
    /** The proxy, and a profile's key scoped to its origin (the active profile's without one), for result links. */
    resultFetchOptions(profile?: string): Promise<Pick<OpenResultOptions, 'proxy' | 'credentials'>>;
  };
  /** A profile's model list (by id or name); the active profile's without one. */
  models: { load(profile?: string): Promise<CatalogSnapshot | undefined> };
  history: MediaHistory;
  /** A profile's media defaults (its default models); the active profile's without one. */
  settings(profile?: string): MediaDefaults;
  /** A profile's dialect setting (imageRoute.ts: `openrouter` sends images through chat); the active profile's without one. */
  dialect(profile?: string): DialectSetting | undefined;
}

/**
 * A call's cancel, surface and profile (core/api.ts's MediaCall); the commands give none of them. Speech:
 * `onAudioStart` hears of a file that grows as the audio arrives (growingAudio.ts), once its first bytes are there;
 * `onAudio` gets each piece as it arrives (a player that streams), from the first that sniffs as audio.
 */
export type MediaCallOptions = Partial<MediaCall> & { onAudioStart?: (start: AudioStart) => void; onAudio?: (chunk: Uint8Array, contentType: AudioType) => void };

export interface ImageOutcome {
  entry: MediaEntry;
  /** What the gateway sent that was not kept (too large, not an image, a refused link), one sentence each. */
  notes: string[];
}

/** Generates images, keeps every one that really is an image in the history, and resolves with the new entry. */
export async function generateImages(deps: MediaCoreDeps, ask: ImageAsk, options: MediaCallOptions = {}): Promise<ImageOutcome> {
  const defaults = deps.settings(options.profile);
  const { api, origin, profile } = await gatewayAccess(deps, options.profile);
  const model = await resolveModel(deps, ask.model, defaults.imageModel, 'image', options.profile);
  const request = buildImageRequest(ask, model, defaults);
  const route = imageRouteOf(deps.dialect(options.profile), await listedModel(deps, model, options.profile));
  const unsent: string[] = [];
  if (route === 'chat' && request.mask) {
    delete request.mask;
    unsent.push('The mask was not sent: a gateway that makes images through chat takes none, so the whole image may change.');
  }
  await checkWritable(deps.history);
  const generation = await api.generateImage(request, { signal: options.signal, maxBytes: defaults.maxBytes, surface: options.surface ?? 'image', route });
  const notes = [...unsent, ...generation.rejected];
  const files: NewMediaFile[] = [];
  // The links are fetched with the key the request went with (a chat's own profile), never the active profile's.
  const fetchOptions = generation.images.some((i) => i.kind === 'url') ? await deps.connection.resultFetchOptions(profile) : {};
  let lastError: unknown;
  for (const [index, image] of generation.images.entries()) {
    const extra = { ...(image.revisedPrompt !== undefined && { revisedPrompt: image.revisedPrompt }), ...(image.caption !== undefined && { caption: image.caption }) };
    if (image.kind === 'data') {
      files.push({ data: image.data, contentType: image.contentType, ...extra });
      continue;
    }
    try {
      const fetched = await fetchResultBytes(image.url, { ...fetchOptions, signal: options.signal, maxBytes: defaults.maxBytes, accept: 'image/*' });
      const contentType = sniffImage(fetched.bytes);
      if (!contentType) throw new MediaError('not_image', `its link sent ${describeBytes(fetched.bytes)} instead of an image`);
      files.push({ data: fetched.bytes, contentType, sourceUrl: image.url, ...extra });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      notes.push(`Image ${index + 1}: ${error instanceof Error ? error.message : String(error)}.`.replace(/\.\.$/, '.'));
      lastError = error;
    }
  }
  if (files.length === 0) throw noImageKept(lastError, notes);
  const entry = await deps.history.add({ kind: 'image', origin, ...profileOf(profile), model, prompt: request.prompt, size: request.size, files, notes });
  return { entry, notes };
}

/** Speaks the text and keeps the audio in the history; resolves with the new entry. */
export async function synthesizeSpeech(deps: MediaCoreDeps, ask: SpeechAsk, options: MediaCallOptions = {}): Promise<MediaEntry> {
  const defaults = deps.settings(options.profile);
  const { api, origin, profile } = await gatewayAccess(deps, options.profile);
  const model = await resolveModel(deps, ask.model, defaults.speechModel, 'speech', options.profile);
  const request = buildSpeechRequest(ask, model, defaults);
  await checkWritable(deps.history);
  const growing = options.onAudioStart && new GrowingAudioFile(deps.history.filesFolder, defaults.maxBytes, options.onAudioStart);
  try {
    const heard = options.onAudio;
    const onAudio = growing || heard ? (chunk: Uint8Array, type: AudioType) => (growing?.push(chunk, type), heard?.(chunk, type)) : undefined;
    const audio = await api.synthesizeSpeech(request, { signal: options.signal, maxBytes: defaults.maxBytes, surface: options.surface ?? 'speech', ...(onAudio && { onAudio }) });
    await growing?.close();
    return await deps.history.add({ kind: 'speech', origin, ...profileOf(profile), model, prompt: request.input, voice: request.voice, files: [{ data: audio.audio, contentType: audio.contentType }], notes: [] });
  } finally {
    await growing?.remove().catch(() => undefined);
  }
}

/** The model for a kind: the one asked for, the profile's default, else the first the profile's gateway lists. */
export async function resolveModel(deps: Pick<MediaCoreDeps, 'models'>, asked: string | undefined, configured: string | undefined, kind: 'image' | 'speech', profile?: string): Promise<string> {
  const direct = chooseModel(asked, configured, [], kind);
  if (direct) return direct;
  const snapshot = await deps.models.load(profile);
  const listed = chooseModel(undefined, undefined, snapshot?.models ?? [], kind);
  if (listed) return listed;
  throw new MediaError('no_model', `The gateway lists no ${kind} model. Set modelGateway.${kind}.model to the id of one.`);
}

/** The model's entry in the profile's list (its fields say how it makes images), when the list can be had. */
async function listedModel(deps: Pick<MediaCoreDeps, 'models'>, id: string, profile?: string): Promise<Model | undefined> {
  const snapshot = await deps.models.load(profile).catch(() => undefined);
  return snapshot?.models.find((m) => m.id === id)?.raw;
}

/**
 * A probe file in each of the history's folders, before a request whose result the history will keep: when they
 * cannot be written (read-only, full), nothing is sent, so a paid result is never made only to be lost.
 */
async function checkWritable(history: Pick<MediaHistory, 'ready' | 'filesFolder' | 'entriesFolder'>): Promise<void> {
  await history.ready;
  for (const folder of [history.filesFolder, history.entriesFolder]) {
    const probe = join(folder, `probe.${randomBytes(4).toString('hex')}.tmp`);
    try {
      await writeFileAtomic(probe, '');
      await rm(probe, { force: true });
    } catch (error) {
      throw new MediaError('storage', `Nothing was sent: the Media history folder ${folder} cannot be written (${(error as Error).message}), so the result could not be kept. Make it writable or free some disk space, then try again.`);
    }
  }
}

/** The entry's profile field: absent for Default, as in entries made before profiles. */
function profileOf(profile: string | undefined): { profile?: string } {
  return profile && profile !== 'default' ? { profile } : {};
}

async function gatewayAccess(deps: MediaCoreDeps, profile?: string): Promise<Extract<GatewayAccess, { ok: true }>> {
  const access = await deps.connection.access(profile);
  if (!access.ok) throw new MediaError('missing_access', accessAdvice(access).message, accessAdvice(access));
  return access;
}

function noImageKept(last: unknown, notes: string[]): MediaError {
  const code = last instanceof ResultFetchError && last.code === 'too_large' ? 'too_large' : last instanceof MediaError ? last.code : 'fetch_failed';
  return new MediaError(code, `The gateway made the image${notes.length > 1 ? 's' : ''}, but none could be kept. ${notes.join(' ')}`);
}
