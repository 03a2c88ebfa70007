// Which of the gateway's models can chat: the one rule in src/models/modelKind.ts decides.
import type { Model } from '../gateway/types';
import { classifyModel } from '../models/modelKind';

export function isChatModel(model: Pick<Model, 'id'> & Partial<Model>): boolean {
  return classifyModel(model) === 'chat';
}

export function chatModelIds(models: readonly Model[]): string[] {
  return models.filter(isChatModel).map((m) => m.id);
}

/** The model for a new chat: the configured default, else the first chat model listed. */
export function pickDefaultModel(configured: string | undefined, listed: readonly string[]): string | undefined {
  return configured || listed[0];
}
