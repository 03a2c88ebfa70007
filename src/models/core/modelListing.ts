// The model lists asked of a gateway and read into the catalog's models, on the catalog's first load (a file of its
// own, so activation does not carry the kind rules). OpenRouter lists image, speech and video models only when asked
// (`?output_modalities=all`, and /videos/models for video); LiteLLM says each model's mode and prices at
// /model/info, which other gateways do not answer, so it is tried once, on the first load, and not again once it failed.
import type { GatewayApi, ListModelsOptions, Model } from '../../gateway/types';
import { isRecord } from '../../util/records';
import { explainKind } from './modelKind';
import type { CatalogModel, GatheredModel, ListPlan, ModelInfoState } from './modelSources';

type Lister = Pick<GatewayApi, 'listModels'>;

/**
 * The gateway's models: /models (all modalities on OpenRouter) is the list and its failure is the load's; the
 * extra lists only add to it, and their failure is no failure.
 */
export async function gatherModels(api: Lister, plan: ListPlan | undefined, modelInfo: ModelInfoState): Promise<{ models: GatheredModel[]; modelInfo: ModelInfoState }> {
  const extra = (options: ListModelsOptions): Promise<Model[] | undefined> => api.listModels(options).catch(() => undefined);
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

/** The catalog's models from the gateway's lists: each once (the first entry wins), with its kind and why. */
export async function listCatalogModels(api: Lister, plan: ListPlan | undefined, modelInfo: ModelInfoState): Promise<{ models: CatalogModel[]; modelInfo: ModelInfoState }> {
  const gathered = await gatherModels(api, plan, modelInfo);
  return { models: dedupe(gathered.models).map((m) => toCatalogModel(m.entry, m.listedIn)), modelInfo: gathered.modelInfo };
}

export function toCatalogModel(model: Model, listedIn?: 'videoModels'): CatalogModel {
  const verdict = explainKind(model, { listedIn });
  return {
    id: model.id,
    kind: verdict.kind,
    kindSource: verdict.source,
    ...(listedIn && { listedIn }),
    ...(typeof model.owned_by === 'string' && model.owned_by !== '' ? { ownedBy: model.owned_by } : {}),
    ...(typeof model.created === 'number' && Number.isFinite(model.created) ? { created: model.created } : {}),
    raw: model,
  };
}

/** Some gateways list a model once per route; the first entry wins. */
function dedupe<T extends { entry: Model }>(models: readonly T[]): T[] {
  const seen = new Set<string>();
  return models.filter((m) => !seen.has(m.entry.id) && seen.add(m.entry.id));
}

