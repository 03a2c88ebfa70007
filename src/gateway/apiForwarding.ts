// The gateway API's method list, written once at runtime, for the wrappers that pass every call on unchanged but
// for one concern of their own (the connection's outcome tracking, the job store's lazily resolved API). A wrapper
// that listed the methods itself would silently miss one added to GatewayApi; this list fails to compile instead.
// Not a JS Proxy: a Proxy answers every property, `then` included, so awaiting one would hang.
import type { GatewayApi } from './types';

export type GatewayMethod = keyof GatewayApi;

export const GATEWAY_API_METHODS = ['listModels', 'chat', 'submitVideo', 'getVideo', 'generateImage', 'synthesizeSpeech', 'transcribeAudio'] as const satisfies readonly GatewayMethod[];

// A compile error naming the method when GatewayApi gains one this list lacks.
type Unlisted = Exclude<GatewayMethod, (typeof GATEWAY_API_METHODS)[number]>;
const listIsWhole: [Unlisted] extends [never] ? true : Unlisted = true;
void listIsWhole;

/** Calls `method` of `api` with `args` (the arguments a forwarding wrapper received). */
export function invoke(api: GatewayApi, method: GatewayMethod, args: unknown[]): Promise<unknown> {
  return (api[method] as (...a: unknown[]) => Promise<unknown>).apply(api, args);
}

/**
 * A GatewayApi whose every method hands its name and arguments to `call`, which returns what the method would
 * (the caller keeps each method's promise type: `call` forwards to a real API through `invoke`).
 */
export function forwardingApi(call: (method: GatewayMethod, args: unknown[]) => Promise<unknown>): GatewayApi {
  const api: Partial<Record<GatewayMethod, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const method of GATEWAY_API_METHODS) api[method] = (...args) => call(method, args);
  return api as GatewayApi;
}
