// The parts of undici the client uses, loaded on the first request (see undiciLoader.ts for why only these parts).
// The build bundles this file with undici into dist/undiciParts.js, apart from the activation bundle.
import type { Dispatcher, Pool, ProxyAgent } from 'undici';

export interface UndiciParts {
  Pool: typeof Pool;
  ProxyAgent: typeof ProxyAgent;
  request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

/* eslint-disable @typescript-eslint/no-require-imports */
function loadParts(): UndiciParts {
  const dispatcherClass = require('undici/lib/dispatcher/dispatcher') as { prototype: Record<string, unknown> };
  const api = require('undici/lib/api') as Record<string, unknown>;
  const pool = require('undici/lib/dispatcher/pool') as typeof Pool;
  const proxyAgent = require('undici/lib/dispatcher/proxy-agent') as typeof ProxyAgent;
  if (typeof pool !== 'function' || typeof proxyAgent !== 'function' || typeof api.request !== 'function' || typeof api.connect !== 'function') {
    throw new Error('unexpected undici layout');
  }
  // What undici's index.js does too: the request/connect/… API on its Dispatcher class (ProxyAgent needs connect).
  if (typeof dispatcherClass.prototype.request !== 'function') Object.assign(dispatcherClass.prototype, api);
  return { Pool: pool, ProxyAgent: proxyAgent, request: (dispatcher, options) => dispatcher.request(options) };
}

/* eslint-enable @typescript-eslint/no-require-imports */

// The parts are bundled at build time, so their layout cannot change under a built extension: a layout that no
// longer fits fails the build's tests (the client's unit tests load these parts), never a user's request.
export function loadUndiciParts(): UndiciParts {
  return loadParts();
}
