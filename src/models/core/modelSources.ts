// What the catalog holds and which lists it asks for: the catalog's model, and whether the profile's gateway speaks
// OpenRouter's dialect (modelListing.ts asks the lists and reads them, on the first load). Types and one small
// function only, as activation loads this file.
import type { DialectSetting } from '../../settings/profile';
import type { Model } from '../../gateway/types';
import type { KindSource, ModelKind } from './modelKind';

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

/** A model of the catalog (modelCatalog.ts): its kind, decided once when the list arrives (modelListing.ts). */
export interface CatalogModel {
  readonly id: string;
  readonly kind: ModelKind;
  readonly ownedBy?: string;
  /** Unix seconds, as the gateway sent it. */
  readonly created?: number;
  /** Which field decided the kind (modelKind.ts's order). */
  readonly kindSource?: KindSource;
  /** The per-modality list it was found in (OpenRouter's /videos/models). */
  readonly listedIn?: 'videoModels';
  /** The entry as listed (with LiteLLM's /model/info `model_info` where /models gave none), for fields this extension does not know. */
  readonly raw: Model;
}
