// undici is loaded on the first request, not at import time, so that activating the extension stays cheap.
//
// Requiring undici runs its lib/global.js, which installs an undici Agent as the process-wide dispatcher
// (globalThis[Symbol.for('undici.globalDispatcher.1')], non-configurable) when none is set yet. That would
// change what every other fetch() in the extension host uses. While undici loads, a configurable placeholder
// occupies the slot so undici leaves it alone; the placeholder is removed right after. The client itself
// always passes its own dispatcher explicitly.

type Undici = typeof import('undici');

const GLOBAL_DISPATCHER_KEYS = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')];

let loaded: Undici | undefined;

export function loadUndici(): Undici {
  if (loaded) return loaded;
  const placeholders: symbol[] = [];
  for (const key of GLOBAL_DISPATCHER_KEYS) {
    if (Object.getOwnPropertyDescriptor(globalThis, key) === undefined) {
      Object.defineProperty(globalThis, key, { value: { dispatch() {} }, configurable: true, writable: true, enumerable: false });
      placeholders.push(key);
    }
  }
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require('undici') as Undici;
  } finally {
    for (const key of placeholders) delete (globalThis as Record<symbol, unknown>)[key];
  }
  return loaded;
}
