// undici is loaded on the first request, not at import time, so that activating the extension stays cheap: the
// build puts undiciParts.ts (and undici with it) in its own file, dist/undiciParts.js, required only from here.
//
// Only the parts the client uses are loaded (Pool, ProxyAgent, the Dispatcher API). undici's index.js would also run
// lib/global.js, which installs an undici Agent as the process-wide dispatcher
// (globalThis[Symbol.for('undici.globalDispatcher.1')], non-configurable) when none is set yet, and touches
// Node's own fetch internals. That would change what every other fetch() in the extension host uses. The parts
// below load neither; the client always passes its own dispatcher explicitly.
//
// Should a future undici move those files, the fallback loads the whole package, after first letting Node set
// up its own fetch dispatcher (exactly what Node does on the first fetch()), so undici finds one and leaves it.

import { lazy } from '../util/lazy';
import type { UndiciParts } from './undiciParts';

export type { UndiciParts } from './undiciParts';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const parts = lazy(() => (require('./undiciParts') as typeof import('./undiciParts')).loadUndiciParts());

export function loadUndici(): UndiciParts {
  return parts();
}
