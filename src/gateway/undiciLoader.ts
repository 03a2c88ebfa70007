// undici is loaded on the first request, not at import time, so that activating the extension stays cheap.
//
// Only the parts the client uses are loaded (Pool, ProxyAgent, the Dispatcher API). undici's index.js would also run
// lib/global.js, which installs an undici Agent as the process-wide dispatcher
// (globalThis[Symbol.for('undici.globalDispatcher.1')], non-configurable) when none is set yet, and touches
// Node's own fetch internals. That would change what every other fetch() in the extension host uses. The parts
// below load neither; the client always passes its own dispatcher explicitly.
//
// Should a future undici move those files, the fallback loads the whole package, after first letting Node set
// up its own fetch dispatcher (exactly what Node does on the first fetch()), so undici finds one and leaves it.

import type { Dispatcher, Pool, ProxyAgent } from 'undici';

export interface UndiciParts {
  Pool: typeof Pool;
  ProxyAgent: typeof ProxyAgent;
  request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

let loaded: UndiciParts | undefined;

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

function loadWholePackage(): UndiciParts {
  void (globalThis as { Headers?: unknown }).Headers; // lets Node install its own global dispatcher first
  const undici = require('undici') as typeof import('undici');
  return { Pool: undici.Pool, ProxyAgent: undici.ProxyAgent, request: (dispatcher, options) => dispatcher.request(options) };
}
/* eslint-enable @typescript-eslint/no-require-imports */

export function loadUndici(): UndiciParts {
  if (loaded) return loaded;
  try {
    loaded = loadParts();
  } catch {
    loaded = loadWholePackage();
  }
  return loaded;
}
