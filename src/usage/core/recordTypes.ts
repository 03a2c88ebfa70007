// The ledger's record type, on its own so the dashboard page (browser code) can name it without the host's readers.

export type Modality = 'chat' | 'image' | 'video' | 'speech' | 'transcription';
export const MODALITIES: readonly Modality[] = ['chat', 'image', 'video', 'speech', 'transcription'];
export type CostSource = 'reported' | 'estimated' | 'unknown';
/**
 * A value a newer version wrote for a known field (a modality, outcome or cost source this one lacks), kept as
 * stored (its initial) so the record still counts and round-trips: shown as it is, never taken for one of ours.
 */
export type NewerValue = string & { readonly newerValue?: never };

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
  modality: Modality | NewerValue;
  inputTokens?: number;
  outputTokens?: number;
  cachedTokens?: number;
  reasoningTokens?: number;
  images?: number;
  imageBytes?: number;
  imageSize?: string;
  videoSeconds?: number;
  speechChars?: number;
  /** Transcription: seconds of audio. */
  audioSeconds?: number;
  outcome: 'ok' | 'error' | 'cancelled' | NewerValue;
  /** USD; absent when costSource is 'unknown' (and when a newer source stated no figure). */
  cost?: number;
  costSource: CostSource | NewerValue;
  /**
   * The record's own id, given only to a record a later amendment may name (ledgerAmendment.ts: a cost looked up
   * after the call); other records stay without one, to keep lines short.
   */
  id?: string;
  /** Fields a newer version wrote, kept as read so they round-trip. */
  unknown?: Record<string, unknown>;
}

