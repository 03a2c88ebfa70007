// A value built on its first use, once: how the composition root and the features load a file the build keeps out
// of the activation bundle (see CHUNKS in scripts/build.mjs) only when it is needed.

export interface Lazy<T> {
  (): T;
  /** The value if it was built, without building it (what to dispose or flush of a file that may never have loaded). */
  peek(): T | undefined;
}

export function lazy<T>(build: () => T): Lazy<T> {
  let value: { v: T } | undefined;
  return Object.assign(() => (value ??= { v: build() }).v, { peek: () => value?.v });
}
