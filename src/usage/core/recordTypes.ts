// The ledger's record type, on its own so the dashboard page (browser code) can name it without the host's readers.

export type Modality = 'chat' | 'image' | 'video' | 'speech';
export const MODALITIES: readonly Modality[] = ['chat', 'image', 'video', 'speech'];
export type CostSource = 'reported' | 'estimated' | 'unknown';

export interface UsageRecord {
  /** Wall time the request finished, epoch ms. */
  time: number;
  /** The name of the profile the request went out with, as it was then. */
  profile: string;
  /** The profile's id (absent in records written before ids were kept): what follows a profile through a rename. */
  profileId?: string;
  /** The workspace's name ("" with no workspace). */
  workspace: string;
  /** Who sent it: a RequestSurface, or the operation when the caller did not say. */
  surface: string;
  model: string;
  modality: Modality;
  inputTokens?: number;
  outputTokens?: number;
  cachedTokens?: number;
  reasoningTokens?: number;
  images?: number;
  imageBytes?: number;
  imageSize?: string;
  videoSeconds?: number;
  speechChars?: number;
  outcome: 'ok' | 'error' | 'cancelled';
  /** USD; absent exactly when costSource is 'unknown'. */
  cost?: number;
  costSource: CostSource;
  /** Fields a newer version wrote, kept as read so they round-trip. */
  unknown?: Record<string, unknown>;
}

