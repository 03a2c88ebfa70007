
/** The model for a new chat: the configured default, else the first chat model listed. */
export function pickDefaultModel(configured: string | undefined, listed: readonly string[]): string | undefined {
  return configured || listed[0];
}
