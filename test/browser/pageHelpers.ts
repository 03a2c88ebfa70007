// Helpers for code run in a test page through page.evaluate, which cannot import: the harness puts their source on
// `window.pageHelpers`, beside `seededRandom`. Each is self-contained (it closes over nothing of this module).

/** A frame scheduler the test runs by hand; each frame advances its clock by a second. */
export function manualScheduler() {
  let pending: (() => void) | undefined;
  let time = 0;
  return {
    requestFrame(callback: () => void) {
      pending = callback;
      return () => (pending = undefined);
    },
    now: () => time,
    runFrame() {
      time += 1000;
      const callback = pending;
      pending = undefined;
      callback?.();
      return callback !== undefined;
    },
  };
}

/** Where two DOMs' HTML first differ, with 80 characters either side. */
export function firstDifference(actual: string, expected: string): string {
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i++;
  return `at ${i}: got ${JSON.stringify(actual.slice(Math.max(0, i - 80), i + 80))}\n     want ${JSON.stringify(expected.slice(Math.max(0, i - 80), i + 80))}`;
}

export interface PageHelpers {
  manualScheduler: typeof manualScheduler;
  firstDifference: typeof firstDifference;
}

/** The script line that gives a page these helpers. */
export function pageHelpersScript(): string {
  return `window.pageHelpers = { manualScheduler: ${manualScheduler.toString()}, firstDifference: ${firstDifference.toString()} };\n`;
}
