// The media feature's image, speech and transcription calls from the outside (core/api.ts's MediaApi): the same core as Generate
// Image and Synthesize Speech (so results land in the Media history too), with failures worded once, by
// mediaFailureAdvice. Loaded on first use, with the media commands. Pure.
import type { KeptMedia, MediaApi } from './api';
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

export type MediaCallNames = 'generateImage' | 'synthesizeSpeech' | 'transcribe';

export function mediaCalls(deps: MediaCoreDeps, transcription: TranscribeDeps): Pick<MediaApi, MediaCallNames> {
  return {
    transcribe: (ask, call) =>
      worded(transcription, 'transcription', ask.model, async () => {
        const { text, model, timed, clipped } = await transcribeFile(transcription, ask, call);
        return { text, model, timed, ...(clipped && { clipped }) };
      }),
    generateImage: (ask, call) => worded(deps, 'image', ask.model, async () => resultOf((await generateImages(deps, { prompt: ask.prompt, model: ask.model, count: 1 }, call)).entry)),
    synthesizeSpeech: (ask, call) => worded(deps, 'speech', ask.model, async () => resultOf(await synthesizeSpeech(deps, { text: ask.text, model: ask.model }, call))),
  };
}
