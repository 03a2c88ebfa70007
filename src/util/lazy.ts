// A value built on its first use, once: the one way the composition root and the features load a file the build
// keeps out of the activation bundle (see CHUNKS in scripts/build.mjs) only when it is needed. Such a file is
// loaded by writing, in the file that needs it,
//
//   const module = lazy(() => require('./file') as typeof import('./file'));
//
// The require stays in that file (the build routes each relative require to the file it names, so it must see the
// path where it is written), and the layering test refuses a require of a relative path anywhere but here, as the
// body of a `lazy(() => …)`.

export interface Lazy<T> {
  (): T;
  /** The value if it was built, without building it (what to dispose or flush of a file that may never have loaded). */
  peek(): T | undefined;
}

export function lazy<T>(build: () => T): Lazy<T> {
  let value: { v: T } | undefined;
  return Object.assign(() => (value ??= { v: build() }).v, { peek: () => value?.v });
}
