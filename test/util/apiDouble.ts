// The one base for in-process doubles of the gateway API. Tests that drive a call step by step under a fake clock
// (hold a model list until the test answers, emit a chat reply delta by delta, script each poll of a video job)
// cannot use the simulator, which answers over HTTP in real time; each such double overrides the methods its test
// scripts and inherits the rest, which reject as not used. The method list is the gateway's own
// (GATEWAY_API_METHODS), so a method added to GatewayApi needs no change here or in any double.
import { GATEWAY_API_METHODS } from '../../src/gateway/apiForwarding';
import type { GatewayApi } from '../../src/gateway/types';

// A class merged with the interface: subclasses see (and override) every GatewayApi method, whose defaults are put on
// the prototype below from the one list rather than written out here.
export interface ApiDouble extends GatewayApi {}
export class ApiDouble {}

for (const method of GATEWAY_API_METHODS) {
  (ApiDouble.prototype as unknown as Record<string, unknown>)[method] = function notUsed(this: object): Promise<never> {
    return Promise.reject(new Error(`${method} is not used by this test (${this.constructor.name})`));
  };
}

/** A plain-object double: the given methods, every other one rejecting as not used. */
export function apiDouble<T extends Partial<GatewayApi>>(methods: T): GatewayApi & T {
  return Object.assign(new ApiDouble(), methods);
}
