// The `auto` dialect's probes, asked through the gateway client of the profile: its /models, LiteLLM's /model/info
// and OpenRouter's /videos/models. An answer that says the list is not there (404, 405, 400…) is evidence; no key,
// the network, a rate limit or a 5xx is not, and keeps the decision from being kept. Pure.
import type { GatewayAccess } from '../../../gateway/connection';
import { readError } from '../../../gateway/errors';
import type { ListModelsOptions, Model } from '../../../gateway/types';
import type { ProbeName, ProbeResult } from './detect';

export { DialectDetector, type DialectDecision } from './detect';

/** Statuses that mean "no such list here" rather than "could not ask". */
const ABSENT = new Set([400, 404, 405, 410, 422, 501]);

const LISTS: Readonly<Record<ProbeName, ListModelsOptions['list']>> = { models: 'models', modelInfo: 'modelInfo', videoModels: 'videoModels' };

/** What a failed probe says: evidence that the list is absent, or that it could not be asked. */
export function probeFailure(error: unknown): ProbeResult {
  const { status, message, code } = readError(error);
  const words = message.length > 120 ? `${message.slice(0, 119)}…` : message;
  if (status !== undefined && ABSENT.has(status)) return { absent: `HTTP ${status}, no such list` };
  // An answer that is not a list (a web page served for every path) says as much as a 404.
  if (code === 'bad_response') return { absent: `not a model list (${words})` };
  return { failed: status ? `HTTP ${status}: ${words}` : words || 'no answer' };
}

/** The probe function for a profile: each list asked once through `access` (the profile's client and key). */
export function gatewayProbe(access: () => Promise<GatewayAccess>, signal?: AbortSignal): (name: ProbeName) => Promise<ProbeResult> {
  return async (name) => {
    const reached = await access();
    if (!reached.ok) return { failed: reached.missing === 'key' ? 'no API key is set' : reached.missing === 'url' ? 'no base URL is set' : 'the profile was deleted' };
    try {
      const list: Model[] = await reached.api.listModels({ list: LISTS[name], ...(signal && { signal }) });
      return { list };
    } catch (error) {
      return probeFailure(error);
    }
  };
}
