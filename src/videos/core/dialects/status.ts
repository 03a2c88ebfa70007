// How gateway job statuses are read (the extension's words, which every dialect's reading maps onto). The spec names
// only `queued` and `completed`; other values are shown as-is.

const FINAL_STATUSES = new Set(['completed', 'succeeded', 'failed', 'cancelled', 'canceled', 'expired', 'error']);
const SUCCESS_STATUSES = new Set(['completed', 'succeeded']);

function normalize(status: string | undefined): string {
  return (status ?? '').trim().toLowerCase();
}

/** A final status never changes again, so polling stops. Unknown statuses count as still running. */
export function isFinalStatus(status: string | undefined): boolean {
  return FINAL_STATUSES.has(normalize(status));
}

export function isSuccessStatus(status: string | undefined): boolean {
  return SUCCESS_STATUSES.has(normalize(status));
}
