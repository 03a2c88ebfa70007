// What List Models shows, as plain data: models grouped chat / video / other, each with its detail line and
// the actions that make sense for it. The quick pick in modelCommands.ts only renders this.
import type { CatalogModel, CatalogSnapshot } from './modelCatalog';
import type { ModelKind } from './modelKind';

export type ModelAction = 'setDefaultChat' | 'startChat' | 'copyId';

export interface ModelListEntry {
  readonly id: string;
  readonly kind: ModelKind;
  /** Short text next to the id, e.g. that it is the default chat model. */
  readonly description: string;
  /** Owner and creation date. */
  readonly detail: string;
  readonly actions: readonly ModelAction[];
}

export interface ModelListGroup {
  readonly kind: ModelKind;
  readonly title: string;
  readonly entries: readonly ModelListEntry[];
}

export const GROUP_TITLES: Record<ModelKind, string> = { chat: 'Chat models', video: 'Video models', other: 'Other models' };
const GROUP_ORDER: readonly ModelKind[] = ['chat', 'video', 'other'];

export const ACTION_TITLES: Record<ModelAction, string> = {
  setDefaultChat: 'Set as Default Chat Model',
  startChat: 'Start a Chat with This Model',
  copyId: 'Copy Model ID',
};

/** Groups in the order chat, video, other; empty groups are left out; the gateway's order is kept inside a group. */
export function buildModelList(snapshot: CatalogSnapshot, defaultChatModel: string | undefined): ModelListGroup[] {
  return GROUP_ORDER.map((kind) => ({
    kind,
    title: GROUP_TITLES[kind],
    entries: snapshot.models.filter((m) => m.kind === kind).map((m) => toEntry(m, defaultChatModel)),
  })).filter((g) => g.entries.length > 0);
}

function toEntry(model: CatalogModel, defaultChatModel: string | undefined): ModelListEntry {
  const isDefault = model.kind === 'chat' && model.id === defaultChatModel;
  return {
    id: model.id,
    kind: model.kind,
    description: isDefault ? 'default chat model' : '',
    detail: describeModel(model),
    actions: model.kind === 'chat' ? ['startChat', 'setDefaultChat', 'copyId'] : ['copyId'],
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
  const counts: Record<ModelKind, number> = { chat: 0, video: 0, other: 0 };
  for (const m of models) counts[m.kind]++;
  return counts;
}

/** "3 models (2 chat, 1 video)" */
export function summarizeModels(models: readonly Pick<CatalogModel, 'kind'>[]): string {
  const counts = countByKind(models);
  const parts = GROUP_ORDER.filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${k}`);
  const total = `${models.length} model${models.length === 1 ? '' : 's'}`;
  return parts.length > 0 ? `${total} (${parts.join(', ')})` : total;
}
