// The media feature's image, speech and transcription calls from the outside (core/api.ts's MediaApi): the same core as Generate
// Image and Synthesize Speech (so results land in the Media history too), with failures worded once, by
// mediaFailureAdvice. Loaded on first use, with the media commands. Pure.
import { isAbsolute, join } from 'node:path';
import type { EditImageAsk, KeptMedia, MediaApi, MediaCall } from './api';
import { sniffImage } from '../../gateway/mediaTypes';
import { editImage, type EditPlace } from './imageEdit';
import { MediaRequestError } from './mediaRequest';
import { AdvisedError } from '../../ui/core/errorAdvice';
import { mediaFailureAdvice } from './mediaAdvice';
import { generateImages, synthesizeSpeech, type MediaCoreDeps } from './mediaGeneration';
import type { MediaEntry } from './mediaEntry';
import { transcribeFile, type TranscribeDeps } from './transcription';

function resultOf(entry: MediaEntry): KeptMedia {
  const file = entry.files[0];
  const result: KeptMedia = { entryId: entry.id, fileName: file.name, contentType: file.contentType, model: entry.model };
  if (file.sourceUrl) result.url = file.sourceUrl;
  return result;
}

async function worded<T>(deps: Pick<MediaCoreDeps, 'connection'>, what: 'image' | 'speech' | 'transcription', model: string | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new AdvisedError(mediaFailureAdvice(error, { what, origin: deps.connection.origin, model }), { cause: error });
  }
}

/** Where files to edit are read from (the workspace folders) and who says yes to one outside them. */
export type EditPlaceOf = () => Promise<EditPlace & { firstFolder?: string }>;

export type MediaCallNames = 'generateImage' | 'synthesizeSpeech' | 'editImage' | 'transcribe';

export function mediaCalls(deps: MediaCoreDeps, place: EditPlaceOf, transcription: TranscribeDeps): Pick<MediaApi, MediaCallNames> {
  return {
    transcribe: (ask, call) =>
      worded(transcription, 'transcription', ask.model, async () => {
        const { text, model, timed, clipped } = await transcribeFile(transcription, ask, call);
        return { text, model, timed, ...(clipped && { clipped }) };
      }),
    generateImage: (ask, call) => worded(deps, 'image', ask.model, async () => resultOf((await generateImages(deps, { prompt: ask.prompt, model: ask.model, count: 1 }, call)).entry)),
    synthesizeSpeech: (ask, call) => worded(deps, 'speech', ask.model, async () => resultOf(await synthesizeSpeech(deps, { text: ask.text, model: ask.model }, call))),
    editImage: (ask, call) => worded(deps, 'image', ask.model, () => edit(deps, place, ask, call)),
  };
}

async function edit(deps: MediaCoreDeps, place: EditPlaceOf, ask: EditImageAsk, call: MediaCall): Promise<KeptMedia & { written?: string }> {
  if (ask.image) {
    // Bytes a chat attached (the user's yes was asked when it was attached): sniffed, never trusted by their label.
    const contentType = sniffImage(ask.image.data);
    if (!contentType) throw new MediaRequestError('The attached file is not a PNG, JPEG, WebP or GIF image.');
    return resultOf((await generateImages(deps, { prompt: ask.prompt, model: ask.model, count: 1, size: 'auto', image: { data: ask.image.data, contentType } }, call)).entry);
  }
  if (!ask.path) throw new MediaRequestError('Name the image to edit (path).');
  const where = await place();
  const path = isAbsolute(ask.path) || !where.firstFolder ? ask.path : join(where.firstFolder, ask.path);
  const mask = ask.mask === undefined ? undefined : isAbsolute(ask.mask) || !where.firstFolder ? ask.mask : join(where.firstFolder, ask.mask);
  const outcome = await editImage(deps, { path, prompt: ask.prompt, ...(ask.model !== undefined && { model: ask.model }), ...(mask !== undefined && { mask }) }, where, call);
  return { ...resultOf(outcome.entry), ...(outcome.written !== undefined && { written: outcome.written }) };
}
