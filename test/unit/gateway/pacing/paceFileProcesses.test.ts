// Several windows (processes) writing the shared pace file at the same moment: each write takes the file's lock and
// reads it afresh, so no window's entry is lost to another's write, and no lock or temp file is left behind.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { runScript } from '../../../util/processes';

const writer = (file: string, tag: string, count: number) => runScript(join(__dirname, 'paceFileWriter.js'), [file, tag, String(count)]);

describe('gateway pacing: the pace file with several processes', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mg-pace-procs-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every entry three windows write at once', async () => {
    const file = join(dir, 'pacing.json');
    const count = 25;
    const tags = ['a', 'b', 'c'];
    assert.deepEqual(await Promise.all(tags.map((tag) => writer(file, tag, count))), [0, 0, 0]);
    const entries = Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { entries: Record<string, unknown> }).entries);
    for (const tag of tags) assert.equal(entries.filter((id) => id.startsWith(tag)).length, count, `every entry of window ${tag}`);
    assert.deepEqual(readdirSync(dir), ['pacing.json'], 'no lock or temp file is left');
  });
});
