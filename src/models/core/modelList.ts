// What List Models shows, as plain data: models grouped chat / video / image / speech / other, each with its detail
// line and the actions that make sense for it. The quick pick in modelCommands.ts only renders this.
import type { CatalogModel, CatalogSnapshot } from './modelCatalog';
import type { ModelKind } from './modelKind';
import { retirementOf, retirementText } from './retirement';

export type ModelAction = 'setDefaultChat' | 'startChat' | 'setDefaultImage' | 'setDefaultSpeech' | 'copyId';

/** The default model of each kind that has one (the `modelGateway.<kind>.model` settings). */
export type DefaultModels = Partial<Record<'chat' | 'image' | 'speech', string>>;

export interface ModelListEntry {
  readonly id: string;
  readonly kind: ModelKind;
  /** Short text next to the id, e.g. that it is the default chat model. */
  readonly description: string;
  /** Owner and creation date. */
  readonly detail: string;
  /** When the model retires, when that is within 30 days ("retires 2026-12-01 (in 3 days)"). */
  readonly retiring?: string;
  readonly actions: readonly ModelAction[];
}

export interface ModelListGroup {
  readonly kind: ModelKind;
  readonly title: string;
  readonly entries: readonly ModelListEntry[];
}

export const GROUP_TITLES: Record<ModelKind, string> = { chat: 'Chat models', video: 'Video models', image: 'Image models', speech: 'Speech models', other: 'Other models' };
const GROUP_ORDER: readonly ModelKind[] = ['chat', 'video', 'image', 'speech', 'other'];

export const ACTION_TITLES: Record<ModelAction, string> = {
  setDefaultChat: 'Set as Default Chat Model',
  startChat: 'Start a Chat with This Model',
  setDefaultImage: 'Set as Default Image Model',
  setDefaultSpeech: 'Set as Default Speech Model',
  copyId: 'Copy Model ID',
};

const ACTIONS: Record<ModelKind, readonly ModelAction[]> = {
  chat: ['startChat', 'setDefaultChat', 'copyId'],
  video: ['copyId'],
  image: ['setDefaultImage', 'copyId'],
  speech: ['setDefaultSpeech', 'copyId'],
  other: ['copyId'],
};

/** Groups in the order chat, video, image, speech, other; empty groups are left out; the gateway's order is kept inside a group. */
export function buildModelList(snapshot: CatalogSnapshot, defaults: DefaultModels | string | undefined, now?: number): ModelListGroup[] {
  const byKind: DefaultModels = typeof defaults === 'string' ? { chat: defaults } : (defaults ?? {});
  return GROUP_ORDER.map((kind) => ({
    kind,
    title: GROUP_TITLES[kind],
    entries: snapshot.models.filter((m) => m.kind === kind).map((m) => toEntry(m, byKind, now)),
  })).filter((g) => g.entries.length > 0);
}

function toEntry(model: CatalogModel, defaults: DefaultModels, now: number | undefined): ModelListEntry {
  const kind = model.kind;
  const isDefault = (kind === 'chat' || kind === 'image' || kind === 'speech') && model.id === defaults[kind];
  const retirement = now === undefined ? undefined : retirementOf(model.raw, now);
  const retiring = retirement && retirementText(retirement);
  return {
    id: model.id,
    kind,
    description: [isDefault ? `default ${kind} model` : '', retiring ?? ''].filter(Boolean).join(' · '),
    ...(retiring && { retiring }),
    detail: describeModel(model),
    actions: ACTIONS[kind],
  };
}

export function describeModel(model: Pick<CatalogModel, 'ownedBy' | 'created'>): string {
  const parts = [`Owner: ${model.ownedBy ?? 'not given'}`];
  const date = model.created !== undefined ? formatCreated(model.created) : undefined;
  parts.push(date ? `Created: ${date}` : 'Created: not given');
  return parts.join(' · ');
}

/** `created` is Unix seconds per the OpenAI layout; values that can only be milliseconds are read as such. */
export function formatCreated(created: number): string | undefined {
  if (!Number.isFinite(created) || created <= 0) return undefined;
  const ms = created > 1e11 ? created : created * 1000;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 10);
}

export function countByKind(models: readonly Pick<CatalogModel, 'kind'>[]): Record<ModelKind, number> {
  const counts: Record<ModelKind, number> = { chat: 0, video: 0, image: 0, speech: 0, other: 0 };
  for (const m of models) counts[m.kind]++;
  return counts;
}

/** "5 models (2 chat, 1 video, 1 image, 1 speech)" */
export function summarizeModels(models: readonly Pick<CatalogModel, 'kind'>[]): string {
  const counts = countByKind(models);
  const parts = GROUP_ORDER.filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${k}`);
  const total = `${models.length} model${models.length === 1 ? '' : 's'}`;
  return parts.length > 0 ? `${total} (${parts.join(', ')})` : total;
}
