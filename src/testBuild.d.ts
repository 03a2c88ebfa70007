/**
 * Set by the build (scripts/build.mjs): true for the tests' build, false for the packaged extension, where the
 * minifier drops every `if (TEST_BUILD)` block, so the test hooks are not built at all.
 */
declare const TEST_BUILD: boolean;
