// The model lists a gateway may answer, and how each names its models. Kept beside the client so its request code
// stays one call: the path (and OpenRouter's query) per list, and the entries read out of the answer.
import { isRecord } from '../util/records';
import type { ListModelsOptions, Model } from './types';

/** The path below the base URL for the list asked for. */
export function modelListPath(options: ListModelsOptions | undefined): string {
  if (options?.list === 'modelInfo') return '/model/info';
  if (options?.list === 'videoModels') return '/videos/models';
  // OpenRouter lists text-output models only unless asked for all of them.
  return options?.allModalities ? '/models?output_modalities=all' : '/models';
}

/**
 * The entries of a list answer (an array, or `{data: [...]}`), each with an `id`: LiteLLM's /model/info names a
 * model by `model_name` (the id /models gives it), so that becomes the id. Undefined when the answer has no list.
 */
export function modelListEntries(body: unknown, list: ListModelsOptions['list']): unknown[] | undefined {
  const entries = Array.isArray(body) ? body : isRecord(body) ? body.data : undefined;
  if (!Array.isArray(entries) || list !== 'modelInfo') return entries as unknown[] | undefined;
  return entries.map((e) => (isRecord(e) && typeof e.id !== 'string' && typeof e.model_name === 'string' ? { ...e, id: e.model_name } : e));
}

export function isModelEntry(value: unknown): value is Model {
  return isRecord(value) && typeof value.id === 'string';
}
