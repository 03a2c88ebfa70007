// Several workbench windows on one VS Code server, against the gateway simulator: two browser pages with two folders
// (two extension hosts) in one browser profile, and later a third page in a fresh profile. Runs in Node and drives
// the pages with playwright; in each window, agent.ts does what this test asks. The simulator's request log tells
// which window polled: each extension host tags its requests with its window's name.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startSimulator, type RequestLogEntry, type Simulator } from '../../simulator';
import { AgentControl } from './control';
import { CONTROL_URL_ENV, WINDOW_HEADER, type ChatState, type JobSummary, type UsageSeen, type WindowState } from './protocol';

const ROOT = resolve(__dirname, '../../../..');
const AGENT = join(ROOT, 'out', 'test', 'host', 'multiWindow', 'agent.js');
const VERBOSE = !!process.env.HOST_VERBOSE;
/** Jobs stay queued, then in progress, for this long on the simulator's clock, until the test moves that clock on. */
const JOB_PHASE_MS = 30 * 60_000;
const HANDOVER_LIMIT_MS = 10_000;
/** modelGateway.video.pollMaxSeconds below: no window that polls waits longer than this between two polls of a job. */
const POLL_MAX_MS = 2_000;

/** The part of scripts/vscode-host.mjs this test uses. */
interface HostModule {
  startVSCodeServer(options: {
    port: number;
    userDataDir: string;
    extensionsDir: string;
    settings?: Record<string, unknown>;
    env?: Record<string, string>;
    onOutput?: (text: string) => void;
  }): Promise<{ stop(): Promise<void> }>;
  freePort(): Promise<number>;
  chromiumPath(): string;
  CHROMIUM_FLAGS: string[];
  workbenchUrl(port: number, folder: string, extensionTestsPath: string): string;
  exposeAutomation(target: BrowserContext, handlers: { onLog: (line: string) => void; onExit: (code: number) => void }): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const started = Date.now();
/** A line on the test's progress (on stderr, with the seconds since the start): where the minutes go. */
const progress = (message: string) => process.stderr.write(`      [${((Date.now() - started) / 1000).toFixed(1)} s] ${message}\n`);

function isPoll(entry: RequestLogEntry): boolean {
  return entry.method === 'GET' && /^\/v1\/videos\/generations\/[^/]+$/.test(entry.path);
}

/** `window-a#1234`: the window and its extension host. */
function tagOf(entry: RequestLogEntry): string {
  return String(entry.headers[WINDOW_HEADER] ?? 'untagged');
}

const windowOf = (tag: string) => tag.split('#')[0];

describe('several windows on one VS Code server', function () {
  this.timeout(5 * 60_000);
  let host: HostModule;
  let sim: Simulator;
  let control: AgentControl;
  let server: { stop(): Promise<void> } | undefined;
  let browser: Browser | undefined;
  let port: number;
  let scratch: string;
  let skewMs = 0;
  const pages = new Map<string, Page>();
  const serverLog: string[] = [];
  const submitted: JobSummary[] = [];
  let thirdWindow: Promise<void> | undefined;

  async function openWindow(context: BrowserContext, window: string): Promise<void> {
    const folder = join(scratch, window);
    mkdirSync(folder, { recursive: true });
    const page = await context.newPage();
    pages.set(window, page);
    if (VERBOSE) page.on('console', (msg) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1)} ${window} console.${msg.type()}] ${msg.text().slice(0, 300)}\n`));
    progress(`opening ${window}`);
    await page.goto(host.workbenchUrl(port, folder, AGENT), { waitUntil: 'domcontentloaded', timeout: 120_000 });
    await setUp(window);
  }

  /** Waits for the window's (new) extension host and connects it to the simulator. */
  async function setUp(window: string, notPid?: number): Promise<void> {
    const agent = await within(control.nextAgent(window, notPid), 180_000, `the extension host of ${window}`);
    progress(`${window}: extension host ${agent.pid} is up`);
    const state = await control.call<WindowState>(window, { op: 'setup', apiKey: sim.apiKey, origin: sim.origin });
    progress(`${window}: connected to the simulator (${JSON.stringify(state)})`);
  }

  async function newProfile(): Promise<BrowserContext> {
    const context = await browser!.newContext();
    await host.exposeAutomation(context, {
      onLog: (line) => VERBOSE && process.stderr.write(`[workbench] ${line}\n`),
      onExit: (code) => VERBOSE && process.stderr.write(`[workbench] test payload exited with ${code}\n`),
    });
    // Every notification a page shows. The workbench announces each one to screen readers (`Info: <message>` in
    // its aria alert region) whether or not it draws a toast; toasts are read too.
    await context.addInitScript(() => {
      const seen = new Set<string>();
      (window as unknown as { mgNotifications: Set<string> }).mgNotifications = seen;
      const collect = () => document.querySelectorAll('.monaco-alert, .notification-list-item-message').forEach((el) => el.textContent && seen.add(el.textContent));
      new MutationObserver(collect).observe(document, { subtree: true, childList: true, characterData: true });
    });
    return context;
  }

  const jobsIn = (window: string) => control.call<JobSummary[]>(window, { op: 'jobs' });
  const stateOf = (window: string) => control.call<WindowState>(window, { op: 'state' });
  const states = async () => Object.fromEntries(await Promise.all([...pages.keys()].map(async (window) => [window, await stateOf(window)])));
  const lastSeq = () => sim.log.at(-1)?.seq ?? 0;
  const shownIn = (name: string) => pages.get(name)!.evaluate(() => [...(window as unknown as { mgNotifications: Set<string> }).mgNotifications]);

  /**
   * The windows that polled, and how many polls, from now until every pending job has been polled twice and at
   * least one longest poll interval has passed: long enough for any other window that polls to show up in the log.
   */
  async function pollers(): Promise<{ polls: number; tags: Set<string> }> {
    const from = lastSeq();
    const since = Date.now();
    const ids = submitted.map((job) => job.id!);
    const pollsSince = () => sim.log.filter((e) => e.seq > from && isPoll(e));
    await until(
      async () => {
        const polled = pollsSince().map((e) => e.path.split('/').pop());
        return Date.now() - since >= POLL_MAX_MS && ids.every((id) => polled.filter((p) => p === id).length >= 2);
      },
      'every pending job to be polled twice',
      // A window whose page does not answer (a busy machine) leaves polling to the others until its lease runs out.
      60_000,
    );
    const polls = pollsSince();
    return { polls: polls.length, tags: new Set(polls.map(tagOf)) };
  }

  async function listsAll(window: string): Promise<void> {
    const want = submitted.map((job) => job.key).sort();
    await until(async () => JSON.stringify((await jobsIn(window)).map((job) => job.key).sort()) === JSON.stringify(want), `${window} to list every job`, 15_000);
  }

  before(async function () {
    this.timeout(8 * 60_000);
    host = (await import(pathToFileURL(join(ROOT, 'scripts', 'vscode-host.mjs')).href)) as HostModule;
    sim = await startSimulator({ video: { queuedMs: JOB_PHASE_MS, inProgressMs: JOB_PHASE_MS }, now: () => Date.now() + skewMs });
    control = new AgentControl();
    await control.listen();
    scratch = mkdtempSync(join(tmpdir(), 'mg-windows-'));
    port = await host.freePort();
    server = await host.startVSCodeServer({
      port,
      userDataDir: join(scratch, 'data'),
      extensionsDir: join(scratch, 'extensions'),
      settings: {
        'modelGateway.baseUrl': sim.baseUrl,
        'modelGateway.video.pollMinSeconds': 1,
        'modelGateway.video.pollMaxSeconds': POLL_MAX_MS / 1000,
        // Less for each of the five workbench starts to do.
        'chat.disableAIFeatures': true,
        'workbench.startupEditor': 'none',
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'workbench.enableExperiments': false,
        'telemetry.telemetryLevel': 'off',
      },
      env: { [CONTROL_URL_ENV]: control.url },
      onOutput: (text) => {
        serverLog.push(text);
        if (VERBOSE) process.stderr.write(text);
      },
    });
    browser = await chromium.launch({ executablePath: host.chromiumPath(), headless: true, args: host.CHROMIUM_FLAGS });
    const profile = await newProfile();
    // One after the other: two pages of one profile loading the workbench at once can trip over the shared HTTP
    // cache (ERR_CACHE_WRITE_FAILURE), and the page that lost never starts.
    await openWindow(profile, 'window-a');
    await openWindow(profile, 'window-b');
  });

  after(async function () {
    this.timeout(60_000);
    const step = (what: string, promise: Promise<unknown> | undefined) => within(Promise.resolve(promise), 10_000, what).catch(() => undefined);
    await Promise.all([...pages.keys()].map((window) => step(`${window} to finish`, control.call(window, { op: 'done' }))));
    await step('the browser to close', browser?.close());
    await step('the VS Code server to stop', server?.stop());
    await step('the control channel to close', control?.close());
    await step('the simulator to close', sim?.close());
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed') process.stderr.write(`VS Code server output (last 3000 characters):\n${serverLog.join('').slice(-3000)}\n`);
  });

  it('keeps every job two windows submit at the same time, and each window lists the other\'s without a reload', async () => {
    const jobs = await Promise.all([
      control.call<JobSummary>('window-a', { op: 'submit', prompt: 'A lantern river, from window A' }),
      control.call<JobSummary>('window-b', { op: 'submit', prompt: 'A glass whale, from window B' }),
      control.call<JobSummary>('window-a', { op: 'submit', prompt: 'A paper moon, from window A' }),
      control.call<JobSummary>('window-b', { op: 'submit', prompt: 'A brass owl, from window B' }),
    ]);
    for (const job of jobs) assert.equal(job.status, 'queued', `${job.prompt} was accepted`);
    submitted.push(...jobs);
    await listsAll('window-a');
    await listsAll('window-b');
  });

  it('two extension hosts append to one chat at once: every question and answer is kept, and no file is corrupt', async () => {
    const folder = join(scratch, 'shared-chat');
    const sessionId = await control.call<string>('window-a', { op: 'chatOpen', folder });
    await control.call<ChatState>('window-a', { op: 'chatSend', text: '[echo] opening question' });
    await control.call<string>('window-b', { op: 'chatOpen', folder, sessionId });
    const rounds = 3;
    for (let round = 0; round < rounds; round++) {
      await Promise.all(['window-a', 'window-b'].map((window) => control.call<ChatState>(window, { op: 'chatSend', text: `[echo] ${window} round ${round}` })));
    }
    const names = readdirSync(folder);
    assert.deepEqual(names.filter((name) => /corrupt|\.tmp$|\.lock/.test(name)), [], `no corrupt, temp or lock file is left: ${names.join(', ')}`);
    const file = JSON.parse(readFileSync(join(folder, `${sessionId}.json`), 'utf8')) as { session: { turns: Array<{ role: string; content: string }> } };
    const questions = file.session.turns.filter((t) => t.role === 'user').map((t) => t.content);
    const expected = ['[echo] opening question', ...['window-a', 'window-b'].flatMap((window) => Array.from({ length: rounds }, (_x, round) => `[echo] ${window} round ${round}`))];
    assert.deepEqual([...questions].sort(), [...expected].sort(), 'every question of both windows is in the file');
    const answers = file.session.turns.filter((t) => t.role === 'assistant').map((t) => t.content);
    for (const question of expected) assert.ok(answers.includes(question.slice('[echo] '.length)), `the answer to “${question}” is in the file`);
  });

  it('two extension hosts append to the usage ledger at once: every record is kept, none damaged, and each window reads all', async () => {
    const count = 40;
    const windows = ['window-a', 'window-b'];
    await Promise.all(windows.map((window) => control.call(window, { op: 'usageBurst', tag: `burst-${window}`, count })));
    const every = Array.from({ length: count }, (_x, i) => i + 1);
    for (const window of windows) {
      const seen = await control.call<UsageSeen>(window, { op: 'usageRead' });
      assert.deepEqual(seen, { bursts: { 'burst-window-a': every, 'burst-window-b': every }, damaged: 0 }, `the ledger as ${window} reads it`);
    }
  });

  it('sends nothing from a window whose chat folder is read-only, says so naming the folder, and gives the question back', async () => {
    const folder = join(scratch, 'read-only-chat');
    mkdirSync(folder, { recursive: true });
    makeReadOnly(folder);
    try {
      await control.call<string>('window-b', { op: 'chatOpen', folder });
      const from = lastSeq();
      const state = await control.call<ChatState>('window-b', { op: 'chatSend', text: '[echo] do not lose me' });
      assert.deepEqual(state.drafts, ['[echo] do not lose me'], 'the question is back in the input box');
      assert.deepEqual(state.turns, [], 'no turn lives only in memory');
      assert.deepEqual(sim.log.filter((e) => e.seq > from && e.path === '/v1/chat/completions'), [], 'nothing was sent (the simulator’s log)');
      await until(async () => (await shownIn('window-b')).some((m) => m.includes(`could not save the chat in ${folder}`)), 'the error naming the folder', 10_000);
      assert.deepEqual(readdirSync(folder), []);
    } finally {
      makeWritable(folder);
    }
  });

  it('polls from exactly one window (the simulator\'s log)', async () => {
    const { polls, tags } = await pollers();
    assert.ok(polls >= submitted.length, `every pending job is polled (${polls} polls)`);
    assert.equal(tags.size, 1, `polls came from ${[...tags].join(', ')}`);
    const states = await Promise.all(['window-a', 'window-b'].map(stateOf));
    assert.equal(states.filter((s) => s.polling).length, 1, 'one window holds the lease');
  });

  it('keeps every job through a reload of both windows, and still polls from one', async () => {
    // The third window opens meanwhile: another profile has its own HTTP cache, and the machine is busy anyway.
    thirdWindow = newProfile().then((profile) => openWindow(profile, 'window-c'));
    thirdWindow.catch(() => undefined);
    const before = ['window-a', 'window-b'].map((window) => control.agent(window)!);
    for (const { window, pid } of before) {
      control.forget(window);
      await pages.get(window)!.reload({ waitUntil: 'domcontentloaded', timeout: 120_000 });
      await setUp(window, pid);
    }
    await listsAll('window-a');
    await listsAll('window-b');
    for (const job of await jobsIn('window-a')) assert.equal(job.status, 'queued');
    const { polls, tags } = await pollers();
    assert.ok(polls > 0);
    assert.equal(tags.size, 1, `polls came from ${[...tags].join(', ')}`);
    assert.ok(!before.some(({ window, pid }) => tags.has(`${window}#${pid}`)), 'not from an extension host of before the reload');
  });

  it('lists every job in a third window, in a fresh browser profile', async () => {
    assert.ok(thirdWindow, 'opened during the reload test');
    await thirdWindow;
    await listsAll('window-c');
    const { tags } = await pollers();
    assert.equal(tags.size, 1, `polls came from ${[...tags].join(', ')}`);
  });

  it(`hands polling to another window within ${HANDOVER_LIMIT_MS / 1000} s of the polling window closing`, async () => {
    const { tags } = await pollers();
    progress(`before the close: polls from ${[...tags].join(', ')}; ${JSON.stringify(await states())}`);
    assert.equal(tags.size, 1);
    const closing = windowOf([...tags][0]);
    control.forget(closing);
    const closedAt = Date.now();
    await pages.get(closing)!.close();
    pages.delete(closing);
    const next = await sim.waitForLog((e) => isPoll(e) && e.startedAt >= closedAt && windowOf(tagOf(e)) !== closing, 20_000);
    const handover = next.startedAt - closedAt;
    process.stdout.write(`      polling moved from ${closing} to ${windowOf(tagOf(next))} ${handover} ms after the close\n`);
    assert.ok(handover <= HANDOVER_LIMIT_MS, `handover took ${handover} ms`);
    progress(`after the handover: ${JSON.stringify(await states())}`);
    const after = await pollers();
    assert.equal(after.tags.size, 1, `polls came from ${[...after.tags].join(', ')}`);
  });

  it('shows one notification per finished job, across the windows', async () => {
    const names = [...pages.keys()];
    for (const name of names) {
      await control.call(name, { op: 'showMessage', text: `Probe of ${name}` });
      await until(async () => (await shownIn(name)).some((m) => m.includes(`Probe of ${name}`)), `the test to see a notification of ${name}`, 10_000);
    }
    skewMs += 2 * JOB_PHASE_MS + 60_000; // every job is finished on the simulator now
    for (const name of names) {
      await until(async () => (await jobsIn(name)).every((job) => job.status === 'completed'), `${name} to show every job completed`, 20_000);
    }
    // An unfocused window waits 1.5 s before it claims an announcement. Once every job's claim file exists, no
    // window can win another claim: the notifications shown by then are all there will be.
    const claimsDir = findFolder(join(scratch, 'data'), 'finished');
    await until(async () => submitted.every((job) => existsSync(join(claimsDir, job.key))), 'every finished job to be claimed by a window', 20_000);
    const videoReady = async () => (await Promise.all(names.map(async (name) => (await shownIn(name)).filter((m) => m.includes('Video ready')).length))).reduce((a, b) => a + b, 0);
    await until(async () => (await videoReady()) >= submitted.length, 'a notification for each finished job', 10_000);
    const shown = new Map<string, string[]>();
    for (const name of names) {
      const messages = await shownIn(name);
      shown.set(name, messages.filter((m) => m.includes('Video ready')));
      progress(`${name} showed: ${JSON.stringify(messages)}`);
    }
    for (const job of submitted) {
      const where = names.filter((name) => shown.get(name)!.some((m) => m.includes(job.prompt)));
      assert.equal(where.length, 1, `“${job.prompt}” was announced in ${where.length} windows: ${where.join(', ')}`);
    }
    const total = [...shown.values()].reduce((n, messages) => n + messages.length, 0);
    assert.equal(total, submitted.length, `notifications shown: ${JSON.stringify(Object.fromEntries(shown))}`);
  });
});

/** The video jobs' claim folder (`<globalStorage>/videos/finished`, see src/videos/core/jobFiles.ts) under `root`. */
function findFolder(root: string, name: string): string {
  const found = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((p) => p.endsWith(`videos/${name}`));
  assert.equal(found.length, 1, `one videos/${name} folder under ${root}: ${found.join(', ')}`);
  return join(root, found[0]);
}

/** A folder nobody may write, root included (chmod alone does not stop root: the folder is made immutable too). */
function makeReadOnly(folder: string): void {
  chmodSync(folder, 0o555);
  if (!isWritable(folder)) return;
  execFileSync('chattr', ['+i', folder]);
  assert.ok(!isWritable(folder), `${folder} could not be made read-only here`);
}

function makeWritable(folder: string): void {
  try {
    execFileSync('chattr', ['-i', folder], { stdio: 'ignore' });
  } catch {
    // chattr is missing or the folder was never made immutable
  }
  chmodSync(folder, 0o755);
}

function isWritable(folder: string): boolean {
  try {
    writeFileSync(join(folder, 'probe'), '');
    rmSync(join(folder, 'probe'));
    return true;
  } catch {
    return false;
  }
}

async function until(probe: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
