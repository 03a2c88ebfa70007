// A value built on its first use, once: how the composition root and the features load a file the build keeps out
// of the activation bundle (see CHUNKS in scripts/build.mjs) only when it is needed.

export function lazy<T>(build: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: build() }).v;
}
