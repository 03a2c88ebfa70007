// One build for everything: the extension host's code (Node, CommonJS, `vscode` external: extension.js, which
// activation loads, and the files loaded on first use), one browser bundle per webview entry, and a plain transpile of src/, test/ and bench/ into out/ so mocha and the benches can load
// each module on its own.
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, watch as watchFs, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const watch = args.has('--watch');
const quiet = args.has('--quiet');
// --analyze prints what each file of the extension host's code holds, module by module; --metafile <file> writes
// esbuild's metafiles of those files (a JSON array) for tests.
const metafileArg = process.argv.indexOf('--metafile');
const metafileOut = metafileArg > 0 ? resolve(process.argv[metafileArg + 1]) : undefined;
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
 * The extension host's code in files of its own: extension.js is what activation loads; every other file is
 * required on first use (`require('./client')` in src/gateway stays a require of dist/client.js), so a feature's
 * panels and commands load when first used while its commands and views are registered at activation.
 */
const CHUNKS = {
  extension: join(root, 'src', 'extension.ts'),
  // The HTTP client (with eventsource-parser) on the first request, undici on the first connection.
  client: join(root, 'src', 'gateway', 'client.ts'),
  undiciParts: join(root, 'src', 'gateway', 'undiciParts.ts'),
  // The rate-limit pacer with the first request (gateway/pacing.ts holds its front at activation).
  pacer: join(root, 'src', 'gateway', 'pacer.ts'),
  // The failure classifier's rules with the first failure, and the words for budget, credits and moderation refusals.
  failureClassifier: join(root, 'src', 'gateway', 'failureClassifier.ts'),
  refusalAdvice: join(root, 'src', 'ui', 'core', 'refusalAdvice.ts'),
  connectionTest: join(root, 'src', 'diagnostics', 'core', 'connectionTest.ts'),
  // Test Connection's command and its report view, on its first run.
  testConnectionCommand: join(root, 'src', 'diagnostics', 'vscode', 'testConnectionCommand.ts'),
  // The video jobs' poll scheduler and window roles (leases, who announces), once the first read of the job folder
  // finds jobs or a job is submitted.
  jobPolling: join(root, 'src', 'videos', 'core', 'jobPolling.ts'),
  // The `auto` video dialect's detection (its probes of the gateway's model lists), on its first need.
  dialectProbes: join(root, 'src', 'videos', 'core', 'dialects', 'probes.ts'),
  // The video dialects' wire (and the adapters) with the first job of a dialect other than the spec's.
  jobWire: join(root, 'src', 'videos', 'core', 'jobWire.ts'),
  // The learned poll planner with the first video job of a kind that has a duration history.
  pollPlan: join(root, 'src', 'videos', 'core', 'pollPlan.ts'),
  // VS Code's chat requests through our provider: the mapping of its history and tools, on the first request.
  lmRequests: join(root, 'src', 'models', 'core', 'lmRequestMapping.ts'),
  // The chat session store and the chat protocol's session code, when the Chats view first lists the chats or a panel opens.
  chatStore: join(root, 'src', 'chat', 'vscode', 'sessionStoreReporter.ts'),
  // Each feature's panels and commands when one of its commands first runs (or a chat panel is restored).
  chatCommands: join(root, 'src', 'chat', 'vscode', 'chatCommands.ts'),
  mediaCommands: join(root, 'src', 'media', 'vscode', 'mediaCommands.ts'),
  videoCommands: join(root, 'src', 'videos', 'vscode', 'videoCommands.ts'),
  keyCommands: join(root, 'src', 'auth', 'vscode', 'keyCommands.ts'),
  // The profile list, read right after activation.
  profileStartup: join(root, 'src', 'auth', 'vscode', 'profileStartup.ts'),
  modelCommands: join(root, 'src', 'models', 'vscode', 'modelCommands.ts'),
  // The model lists' requests and the kind rules, on the first load of a model list.
  modelListing: join(root, 'src', 'models', 'core', 'modelListing.ts'),
  // Characters per token learned per model (the chat's context meter), on the first chat answer or chat panel.
  tokenRatios: join(root, 'src', 'models', 'core', 'tokenRatios.ts'),
  // VS Code's chat with several profiles: the other profiles' models.
  lmProfiles: join(root, 'src', 'models', 'vscode', 'lmProfiles.ts'),
  // The gateway's language model tools and @gateway on their first call.
  lmToolsRuntime: join(root, 'src', 'lmTools', 'vscode', 'lmToolsRuntime.ts'),
  // The usage ledger's recorder and status bar on the first gateway call; its dashboard and commands on first use.
  usageService: join(root, 'src', 'usage', 'vscode', 'usageService.ts'),
  usageCommands: join(root, 'src', 'usage', 'vscode', 'usageCommands.ts'),
  // The user seam, on the first message, question or command failure (activation shows nothing).
  userInterface: join(root, 'src', 'ui', 'vscode', 'userInterface.ts'),
  // The notice of a request the rate limit holds over a minute (Send anyway), with the first such wait.
  longWaitNotice: join(root, 'src', 'ui', 'vscode', 'longWaitNotice.ts'),
};
/** Modules used by more than one lazy file (and not by extension.js) are bundled into this one. */
const SHARED = 'shared';
const chunkOfEntry = new Map(Object.entries(CHUNKS).map(([name, file]) => [file, name]));

/** Resolves a relative import as esbuild would (the plugins below only decide where the module goes). */
async function resolveInner(build, args) {
  const r = await build.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: { inner: true } });
  return r.errors.length ? undefined : { path: r.path, namespace: r.namespace, external: r.external, sideEffects: r.sideEffects, suffix: r.suffix };
}

/**
 * Routes each relative import of a build of `chunk`: another file's entry module becomes a require of that file
 * (the first-use seams); `elsewhere(path)` may send a module somewhere else; anything else is bundled.
 */
function routing(chunk, elsewhere = () => undefined) {
  return (build) =>
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData?.inner || args.namespace !== 'file') return undefined;
      const resolved = await resolveInner(build, args);
      if (!resolved) return undefined;
      const target = chunkOfEntry.get(resolved.path);
      if (target && target !== chunk) return { path: `./${target}.js`, external: true };
      return elsewhere(resolved.path) ?? resolved;
    });
}

const key = (file) => relative(root, file).split(sep).join('/');

/** The virtual entry of a file: its entry module's exports, and `__homes`, the modules it homes that others import. */
function homesEntry(chunk, mine) {
  const lines = CHUNKS[chunk] ? [`export * from ${JSON.stringify(CHUNKS[chunk])};`] : [];
  mine.forEach((file, i) => lines.push(`import * as m${i} from ${JSON.stringify(file)};`));
  lines.push(`export const __homes = { ${mine.map((file, i) => `${JSON.stringify(key(file))}: m${i}`).join(', ')} };`);
  return lines.join('\n');
}

/** Bundles the modules `chunk` homes; an import of a module homed elsewhere reads it from that file's `__homes`. */
function homedModules(chunk, homes, exported) {
  return {
    name: 'homed-modules',
    setup(build) {
      build.onResolve({ filter: /^homes:entry$/ }, () => ({ path: chunk, namespace: 'homes-entry' }));
      build.onLoad({ filter: /.*/, namespace: 'homes-entry' }, () => ({ contents: homesEntry(chunk, [...exported].filter((file) => homes.get(file) === chunk).sort()), resolveDir: root, loader: 'js' }));
      routing(chunk, (file) => {
        const home = homes.get(file);
        // No side effects: an import whose bindings are all unused is dropped, so it loads no other file.
        return home && home !== chunk ? { path: file, namespace: 'home-ref', pluginData: { home }, sideEffects: false } : undefined;
      })(build);
      build.onResolve({ filter: /.*/, namespace: 'home-ref' }, (args) => ({ path: args.path, external: true }));
      build.onLoad({ filter: /.*/, namespace: 'home-ref' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`./${args.pluginData.home}.js`)}).__homes[${JSON.stringify(key(args.path))}];`,
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}

const extensionHost = { ...common, bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'], sourcesContent: false };

/**
 * Each file is bundled on its own, so a module two of them use would run twice: two copies of its state, and
 * `instanceof` failing across files. So every module has one home: extension.js when activation uses it, else the
 * one lazy file that uses it, else shared.js. A file exports the modules it homes that others use (`__homes`), and
 * the others' imports of them become a require of that export. Which file uses what depends on the homes (a
 * module exported through `__homes` is kept whole), so the homes are found by building until they settle.
 */
async function extensionHostBuilds() {
  let homes = new Map();
  let exported = new Set();
  const chunksOf = () => [...Object.keys(CHUNKS), ...([...homes.values()].includes(SHARED) ? [SHARED] : [])];
  const optionsFor = (chunk) => ({ ...extensionHost, entryPoints: { [chunk]: 'homes:entry' }, outdir: dist, plugins: [homedModules(chunk, homes, exported)] });
  for (let round = 0; ; round++) {
    const users = new Map();
    await Promise.all(
      chunksOf().map(async (chunk) => {
        const result = await esbuild.build({ ...optionsFor(chunk), write: false, metafile: true, minify: false, sourcemap: false, logLevel: 'silent' });
        const [output] = Object.values(result.metafile.outputs);
        for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
          // A module tree-shaken away (or of types only) is not used.
          const file = input.startsWith('home-ref:') ? input.slice('home-ref:'.length) : input.includes(':') ? undefined : resolve(root, input);
          if (!file || bytesInOutput === 0) continue;
          if (!users.has(file)) users.set(file, new Set());
          users.get(file).add(chunk);
        }
      }),
    );
    const next = new Map();
    const nextExported = new Set();
    for (const [file, chunks] of users) {
      // Packages are imported by bare specifiers, which are not routed: each must stay in one file.
      if (!file.startsWith(join(root, 'src') + sep) && chunks.size > 1) throw new Error(`${key(file)} is bundled into ${[...chunks].join(', ')}: a package may be used by one file only`);
      next.set(file, chunks.has('extension') ? 'extension' : chunks.size === 1 ? [...chunks][0] : SHARED);
      if (chunks.size > 1) nextExported.add(file);
    }
    const settled = next.size === homes.size && [...next].every(([file, home]) => homes.get(file) === home) && nextExported.size === exported.size && [...nextExported].every((f) => exported.has(f));
    if (settled) break;
    if (round === 8) throw new Error('the homes of the extension host modules did not settle');
    homes = next;
    exported = nextExported;
  }
  return chunksOf().map(optionsFor);
}

const extensionHostFiles = await extensionHostBuilds();
const isExtensionHostFile = (options) => extensionHostFiles.includes(options);
const builds = [
  ...extensionHostFiles,
  {
    ...common,
    entryPoints: webviewEntries(),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    outdir: join(dist, 'webview'),
    loader: { '.ttf': 'file' },
    // markdown-it needs only the decoding half of `entities`; its index also brings the 23 KB encoding table.
    alias: { entities: 'entities/lib/decode.js' },
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
  for (const options of builds.filter((o) => !isExtensionHostFile(o))) (await esbuild.context(options)).watch();
  // The extension host's files are rebuilt together, homes found again: an edit may change which file uses a module.
  let timer;
  watchFs(join(root, 'src'), { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        await Promise.all((await extensionHostBuilds()).map((options) => esbuild.build(options)));
        console.log('[build] extension host rebuilt');
      } catch (error) {
        console.error(`[build] ${error.message}`);
      }
    }, 200);
  });
  copyStatic();
  console.log('[build] watching for changes');
} else {
  // A test file that was moved or deleted must not keep running from an old copy in out/, and a bundle or chunk that
  // was renamed or removed must not ship from one in dist/ (the .vsix takes every dist/*.js).
  if (!production) rmSync(join(root, 'out'), { recursive: true, force: true });
  rmSync(dist, { recursive: true, force: true });
  const analyze = args.has('--analyze');
  const withMeta = (options) => (isExtensionHostFile(options) && (analyze || metafileOut) ? { ...options, metafile: true } : options);
  const results = await Promise.all(builds.map((options) => esbuild.build(withMeta(options))));
  const metafiles = results.map((r) => r.metafile).filter(Boolean);
  if (analyze) for (const metafile of metafiles) console.log(await esbuild.analyzeMetafile(metafile));
  if (metafileOut) writeFileSync(metafileOut, JSON.stringify(metafiles));
  copyStatic();
  if (!quiet) console.log(`[build] done in ${Date.now() - started} ms (${relative(process.cwd(), dist) || '.'})`);
}
