// The model list each gateway gave last, kept across sessions so VS Code's model picker can be filled at startup
// without a request. Only ids and kinds are kept (nothing else from the response), for a bounded number of
// gateways; what is read back is checked again, since other versions or windows write the same entry.
import type { Memento } from '../../util/memento';
import { isRecord } from '../../util/records';
import type { ModelKind } from './modelKind';

export interface RememberedModel {
  readonly id: string;
  readonly kind: ModelKind;
}

interface Entry {
  savedAt: number;
  models: Array<[string, ModelKind]>;
}

export const REMEMBERED_MODELS_KEY = 'modelGateway.rememberedModels';
export const MAX_ORIGINS = 8;
export const MAX_MODELS = 500;
const MAX_ID_LENGTH = 256;
const KINDS: readonly string[] = ['chat', 'video', 'image', 'speech', 'other'];

function isModelId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH && !/[\u0000-\u001f\u007f]/.test(value);
}

function readEntry(value: unknown): Entry | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { savedAt, models } = value as Partial<Entry>;
  if (typeof savedAt !== 'number' || !Number.isFinite(savedAt) || !Array.isArray(models)) return undefined;
  const valid = models.filter((m): m is [string, ModelKind] => Array.isArray(m) && m.length === 2 && isModelId(m[0]) && KINDS.includes(m[1] as string));
  return { savedAt, models: valid.slice(0, MAX_MODELS) };
}

export class RememberedModels {
  constructor(private readonly memento: Memento) {}

  /** The models last listed by `origin`, or undefined when none are remembered. */
  get(origin: string): RememberedModel[] | undefined {
    const entry = readEntry(this.all()[origin]);
    return entry?.models.map(([id, kind]) => ({ id, kind }));
  }

  /** Keeps `models` for `origin` (a write only when they differ from what is kept); the oldest gateways are dropped. */
  async remember(origin: string, models: readonly RememberedModel[], now: number): Promise<void> {
    const kept = models.filter((m) => isModelId(m.id)).slice(0, MAX_MODELS).map((m): [string, ModelKind] => [m.id, m.kind]);
    const all = this.all();
    const previous = readEntry(all[origin]);
    if (previous && JSON.stringify(previous.models) === JSON.stringify(kept)) return;
    const entries = Object.entries(all)
      .filter(([key]) => key !== origin)
      .map(([key, value]) => [key, readEntry(value)] as const)
      .filter((pair): pair is readonly [string, Entry] => pair[1] !== undefined)
      .sort((a, b) => b[1].savedAt - a[1].savedAt)
      .slice(0, MAX_ORIGINS - 1);
    await this.memento.update(REMEMBERED_MODELS_KEY, Object.fromEntries([[origin, { savedAt: now, models: kept }], ...entries]));
  }

  private all(): Record<string, unknown> {
    const value = this.memento.get<unknown>(REMEMBERED_MODELS_KEY);
    return isRecord(value) ? value : {};
  }
}
