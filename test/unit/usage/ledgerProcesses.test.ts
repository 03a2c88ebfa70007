// Two windows (two processes) appending to the usage ledger at the same moment: nothing is lost or interleaved.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ledger } from '../../../src/usage/core/ledger';

import { runScript } from '../../util/processes';

const writer = (folder: string, tag: string, count: number) => runScript(join(__dirname, 'ledgerWriter.js'), [folder, tag, String(count)]);

describe('usage ledger with two processes', function () {
  this.timeout(30_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mg-usage-procs-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every record two windows append at once, each line whole', async () => {
    const count = 300;
    assert.deepEqual(await Promise.all([writer(dir, 'window-a', count), writer(dir, 'window-b', count)]), [0, 0]);
    const { records, damaged } = await new Ledger(dir, 'reader').read();
    assert.deepEqual(damaged, []);
    for (const tag of ['window-a', 'window-b']) {
      const tokens = records.filter((r) => r.profile === tag).map((r) => r.inputTokens!).sort((a, b) => a - b);
      assert.deepEqual(tokens, Array.from({ length: count }, (_, i) => i), tag);
    }
  });
});
