// Which model lists a profile's gateway is asked for, and how they become one list. OpenRouter lists image, speech
// and video models only when asked (`?output_modalities=all`, and /videos/models for video); LiteLLM says each
// model's mode and prices at /model/info, which other gateways do not answer, so it is tried once, on the first
// load (never at activation), and not again once it failed.
import type { DialectSetting } from '../../settings/profile';
import type { GatewayApi, ListModelsOptions, Model } from '../../gateway/types';
import { isRecord } from '../../util/records';

/** What the catalog knows about the gateway it lists: whether it speaks OpenRouter's dialect. */
export interface ListPlan {
  readonly openrouter: boolean;
}

/** A model as gathered: its entry (merged with /model/info's) and the per-modality list it came from. */
export interface GatheredModel {
  readonly entry: Model;
  readonly listedIn?: 'videoModels';
}

/** Whether /model/info answered before: undefined = not tried yet. */
export type ModelInfoState = 'answers' | 'absent' | undefined;

/** OpenRouter's lists when the profile says so, or its host is openrouter.ai (as `auto` decides). */
export function listPlanOf(dialect: DialectSetting | undefined, origin: string | undefined): ListPlan {
  if (dialect !== undefined && dialect !== 'auto') return { openrouter: dialect === 'openrouter' };
  let host = '';
  try {
    host = origin ? new URL(origin).hostname.toLowerCase() : '';
  } catch {
    host = '';
  }
  return { openrouter: host === 'openrouter.ai' || host.endsWith('.openrouter.ai') };
}

type Lister = Pick<GatewayApi, 'listModels'>;

/**
 * The gateway's models: /models (all modalities on OpenRouter) is the list and its failure is the load's; the
 * extra lists only add to it, and their failure is no failure.
 */
export async function gatherModels(api: Lister, plan: ListPlan | undefined, modelInfo: ModelInfoState): Promise<{ models: GatheredModel[]; modelInfo: ModelInfoState }> {
  const extra = (options: ListModelsOptions): Promise<Model[] | undefined> => api.listModels({ ...options, pace: 'background' }).catch(() => undefined);
  const videos = plan?.openrouter ? extra({ list: 'videoModels' }) : Promise.resolve(undefined);
  const listed = await api.listModels(plan?.openrouter ? { allModalities: true } : undefined);
  // Entries that already say their kind the OpenRouter way need nothing from LiteLLM's list.
  const probe = plan !== undefined && !plan.openrouter && modelInfo !== 'absent' && !listed.every((m) => isRecord(m.architecture));
  const info = probe ? await extra({ list: 'modelInfo' }) : undefined;
  const merged = info ? withModelInfo(listed, info) : listed;
  const videoList = (await videos) ?? [];
  const known = new Set(merged.map((m) => m.id));
  const videoIds = new Set(videoList.map((m) => m.id));
  const models: GatheredModel[] = [
    ...merged.map((entry) => (videoIds.has(entry.id) ? { entry, listedIn: 'videoModels' as const } : { entry })),
    ...videoList.filter((m) => !known.has(m.id)).map((entry) => ({ entry, listedIn: 'videoModels' as const })),
  ];
  return { models, modelInfo: probe ? (info ? 'answers' : 'absent') : modelInfo };
}

/** Each listed model with LiteLLM's `model_info` for it (by `model_name`), where the entry has none of its own. */
export function withModelInfo(listed: readonly Model[], info: readonly Model[]): Model[] {
  const byName = new Map<string, Record<string, unknown>>();
  for (const entry of info) if (isRecord(entry.model_info) && !byName.has(entry.id)) byName.set(entry.id, entry.model_info);
  return listed.map((m) => {
    const found = byName.get(m.id);
    return found && !isRecord(m.model_info) ? { ...m, model_info: found } : m;
  });
}
