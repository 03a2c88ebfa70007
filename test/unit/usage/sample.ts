// A typical record for the usage tests.
import type { UsageRecord } from '../../../src/usage/core/record';

export const SAMPLE_TIME = Date.UTC(2026, 10, 20, 12);

export function sampleRecord(over: Partial<UsageRecord> = {}): UsageRecord {
  return {
    time: SAMPLE_TIME,
    profile: 'default',
    workspace: 'my-project',
    surface: 'chat',
    model: 'openai/gpt-4o-mini',
    modality: 'chat',
    inputTokens: 1834,
    outputTokens: 412,
    cachedTokens: 1024,
    reasoningTokens: 128,
    outcome: 'ok',
    cost: 0.000521,
    costSource: 'estimated',
    ...over,
  };
}

