// The media feature as the chat's /image and /speak port: the same core as Generate Image and Synthesize Speech
// (so results land in the Media history too), with failures worded once, by mediaFailureAdvice. Pure; the chat's
// port type is matched structurally (the chat and media folders do not import each other).
import { mediaFailureAdvice } from './mediaAdvice';
import { generateImages, synthesizeSpeech, type MediaCoreDeps } from './mediaGeneration';
import type { MediaEntry } from './mediaEntry';

export interface ChatMediaResult {
  entryId: string;
  fileName: string;
  contentType: string;
  url?: string;
  model: string;
}

function resultOf(entry: MediaEntry): ChatMediaResult {
  const file = entry.files[0];
  const result: ChatMediaResult = { entryId: entry.id, fileName: file.name, contentType: file.contentType, model: entry.model };
  if (file.sourceUrl) result.url = file.sourceUrl;
  return result;
}

async function worded<T>(deps: MediaCoreDeps, what: 'image' | 'speech', model: string | undefined, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new Error(mediaFailureAdvice(error, { what, origin: deps.connection.origin, model }).message, { cause: error });
  }
}

/** `save(entryId, index)` is Save to Workspace (the media feature's command, with its rules). */
export function chatMediaPort(deps: MediaCoreDeps, save: (entryId: string, index: number) => Promise<unknown>) {
  const history = deps.history;
  return {
    filesFolder: history.filesFolder,
    generateImage: (ask: { prompt: string; model?: string; profile?: string; surface?: 'tool' }, signal: AbortSignal) =>
      worded(deps, 'image', ask.model, async () => resultOf((await generateImages(deps, { prompt: ask.prompt, model: ask.model, count: 1 }, { signal, surface: ask.surface ?? 'chat-image', profile: ask.profile })).entry)),
    synthesizeSpeech: (ask: { text: string; model?: string; profile?: string; surface?: 'tool' }, signal: AbortSignal) =>
      worded(deps, 'speech', ask.model, async () => resultOf(await synthesizeSpeech(deps, { text: ask.text, model: ask.model }, { signal, surface: ask.surface ?? 'chat-speech', profile: ask.profile }))),
    keptFile: (entryId: string, fileName: string) => {
      const file = history.get(entryId)?.files.find((f) => f.name === fileName);
      return file && { path: history.filePath(file), contentType: file.contentType };
    },
    save: async (entryId: string, fileName: string) => {
      const index = history.get(entryId)?.files.findIndex((f) => f.name === fileName) ?? -1;
      if (index < 0) throw new Error('This file is no longer in the Media history: regenerate it to save it.');
      await save(entryId, index);
    },
  };
}
