// How `npm test` judges a stage's output (scripts/stageReport.mjs): a stage that ran nothing fails, and every
// setting that narrows the run is named.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';

interface StageCounts {
  passed: number;
  failed: number;
  skipped: number;
  problems: string[];
}
interface StageReport {
  narrowing(env: Record<string, string | undefined>, argv: string[]): string[];
  isCI(env: Record<string, string | undefined>): boolean;
  stageCounts(label: string, out: string, exitCode: number): StageCounts;
  stressVerdict(runs: Array<{ counts: StageCounts; seconds: number; spinning: boolean }>, wanted: number): { lines: string[]; ok: boolean };
}

// An ES module under scripts/; Node 24 requires it synchronously.
const report = require(join(__dirname, '..', '..', '..', '..', 'scripts', 'stageReport.mjs')) as StageReport;

describe('npm test: stage report', () => {
  it('adds up every count line of a stage, the host stage printing one per run', () => {
    const out = 'noise\nhost: 120 passed, 1 failed\nother: 9 passed, 9 failed\nhost: 3 passed, 0 failed, 2 skipped\n';
    assert.deepEqual(report.stageCounts('host', out, 1), { passed: 123, failed: 1, skipped: 2, problems: [] });
  });

  it('fails a stage that ran nothing, even when it exited 0', () => {
    const counts = report.stageCounts('unit', 'unit: 0 passed, 0 failed\n', 0);
    assert.equal(counts.failed, 1);
    assert.match(counts.problems[0], /ran nothing/);
  });

  it('fails a stage one of whose runs ran nothing', () => {
    const counts = report.stageCounts('host', 'host: 40 passed, 0 failed\nhost: 0 passed, 0 failed\n', 0);
    assert.equal(counts.failed, 1);
    assert.match(counts.problems[0], /1 of its 2 runs ran nothing/);
  });

  it('fails a stage that printed no count, or exited non-zero with no failed test, once', () => {
    assert.equal(report.stageCounts('e2e', 'crashed\n', 1).failed, 1);
    assert.equal(report.stageCounts('e2e', 'e2e: 5 passed, 0 failed\n', 1).failed, 1);
    assert.equal(report.stageCounts('e2e', 'e2e: 5 passed, 2 failed\n', 1).failed, 2);
    // A line quoted inside other output is not a count.
    assert.equal(report.stageCounts('e2e', 'log: e2e: 5 passed, 0 failed\n', 0).failed, 1);
  });

  it('names every setting that narrows the run', () => {
    assert.deepEqual(report.narrowing({}, ['node', 'test.mjs']), []);
    assert.deepEqual(report.narrowing({ MOCHA_GREP: 'x', MODEL_GATEWAY_HOST_GREP: '', MODEL_GATEWAY_HOST_ONLY: 'single' }, ['node', 'test.mjs', '--only', 'host']), [
      'MOCHA_GREP=x',
      'MODEL_GATEWAY_HOST_ONLY=single',
      '--only host',
    ]);
    assert.deepEqual(report.narrowing({ MODEL_GATEWAY_HOST_GREP: 'chat' }, []), ['MODEL_GATEWAY_HOST_GREP=chat']);
  });

  it('knows CI from its variable', () => {
    assert.equal(report.isCI({ CI: 'true' }), true);
    assert.equal(report.isCI({ CI: '1' }), true);
    assert.equal(report.isCI({ CI: 'false' }), false);
    assert.equal(report.isCI({}), false);
  });

  it('passes the e2e stress run only when every wanted run passed with the core busy throughout', () => {
    const pass = { counts: report.stageCounts('e2e', 'e2e: 40 passed, 0 failed\n', 0), seconds: 400, spinning: true };
    const fail = { counts: report.stageCounts('e2e', 'e2e: 39 passed, 1 failed\n', 1), seconds: 410, spinning: true };
    const crashed = { counts: report.stageCounts('e2e', 'Error: code-server did not start\n', 1), seconds: 5, spinning: true };
    const idle = { ...pass, spinning: false };
    const all = report.stressVerdict([pass, pass, pass], 3);
    assert.equal(all.ok, true);
    assert.deepEqual(all.lines, ['e2e stress run 1 of 3: 40 passed, 0 failed in 400 s', 'e2e stress run 2 of 3: 40 passed, 0 failed in 400 s', 'e2e stress run 3 of 3: 40 passed, 0 failed in 400 s', 'e2e stress: all 3 runs passed with one core busy']);
    assert.equal(report.stressVerdict([pass, fail, pass], 3).ok, false);
    assert.match(report.stressVerdict([pass, fail, pass], 3).lines.at(-1)!, /FAILED: 1 of 3 runs failed/);
    assert.equal(report.stressVerdict([pass, crashed, pass], 3).ok, false, 'a run that reported nothing fails');
    assert.match(report.stressVerdict([pass, idle, pass], 3).lines[1], /busy process had stopped/);
    assert.equal(report.stressVerdict([pass, idle, pass], 3).ok, false);
    assert.equal(report.stressVerdict([pass, pass], 3).ok, false, 'fewer runs than wanted');
  });
});
