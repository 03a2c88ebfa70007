// One build for everything: the extension bundle (Node, CommonJS, `vscode` external), one browser bundle per
// webview entry, and a plain transpile of src/, test/ and bench/ into out/ so mocha and the benches can load
// each module on its own.
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');
const quiet = args.has('--quiet');
// --dist <folder> writes the bundles elsewhere (the startup bench measures a production build without replacing dist/).
const distArg = process.argv.indexOf('--dist');
const dist = distArg > 0 ? resolve(process.argv[distArg + 1]) : join(root, 'dist');

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Webview entry points: every `src/webview/<name>/main.ts` becomes `dist/webview/<name>.js`. */
function webviewEntries() {
  const dir = join(root, 'src', 'webview');
  if (!existsSync(dir)) return {};
  const entries = {};
  for (const name of readdirSync(dir)) {
    const main = join(dir, name, 'main.ts');
    if (existsSync(main)) entries[name] = main;
  }
  return entries;
}

// TEST_BUILD keeps the extension-host tests' hooks out of the packaged extension (its exports stay empty).
const common = { logLevel: quiet ? 'error' : 'info', sourcemap: production ? false : 'linked', minify: production, define: { TEST_BUILD: production ? 'false' : 'true' } };

/**
 * Modules loaded on first use, each bundled into its own file beside extension.js, so activation loads none of
 * them: the HTTP client (with eventsource-parser) on the first request, undici on the first connection, the
 * connection test when it first runs. A `require('./client')` in src/gateway stays a require of dist/client.js.
 */
const LAZY_CHUNKS = {
  client: join(root, 'src', 'gateway', 'client.ts'),
  undiciParts: join(root, 'src', 'gateway', 'undiciParts.ts'),
  connectionTest: join(root, 'src', 'diagnostics', 'connectionTest.ts'),
};

const lazyChunksExternal = {
  name: 'lazy-chunks',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^\\./(${Object.keys(LAZY_CHUNKS).join('|')})$`) }, (args) => {
      const target = resolve(args.resolveDir, args.path) + '.ts';
      const chunk = Object.entries(LAZY_CHUNKS).find(([, file]) => file === target)?.[0];
      // A chunk's own entry module is bundled normally; every other importer requires the chunk's file.
      if (!chunk || args.importer === target) return undefined;
      return { path: `./${chunk}.js`, external: true };
    });
  },
};

const extensionHost = { ...common, bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], sourcesContent: false, plugins: [lazyChunksExternal] };

const builds = [
  { ...extensionHost, entryPoints: [join(root, 'src', 'extension.ts')], outfile: join(dist, 'extension.js') },
  { ...extensionHost, entryPoints: LAZY_CHUNKS, outdir: dist },
  {
    ...common,
    entryPoints: webviewEntries(),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    outdir: join(dist, 'webview'),
    loader: { '.ttf': 'file' },
    sourcesContent: false,
  },
];
if (!production) {
  const files = [...walk(join(root, 'src')), ...walk(join(root, 'test')), ...walk(join(root, 'bench'))];
  builds.push({
    ...common,
    sourcemap: 'inline',
    entryPoints: files,
    bundle: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outdir: join(root, 'out'),
    outbase: root,
  });
}

function copyStatic() {
  const codicons = join(root, 'node_modules', '@vscode', 'codicons', 'dist');
  mkdirSync(join(dist, 'codicons'), { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) cpSync(join(codicons, f), join(dist, 'codicons', f));
}

const started = Date.now();
if (watch) {
  for (const options of builds) (await esbuild.context(options)).watch();
  copyStatic();
  console.log('[build] watching for changes');
} else {
  // A test file that was moved or deleted must not keep running from an old copy in out/.
  if (!production) rmSync(join(root, 'out'), { recursive: true, force: true });
  await Promise.all(builds.map((options) => esbuild.build(options)));
  copyStatic();
  if (!quiet) console.log(`[build] done in ${Date.now() - started} ms (${relative(process.cwd(), dist) || '.'})`);
}
