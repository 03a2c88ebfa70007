// Every command package.json declares was run at least once by this suite, through the palette, a menu, a
// button or a keybinding. The extension's own log says which ran (each run is logged at debug level).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { session } from './harness/session';
import { brokenFlows } from './harness/suite';
import { Workbench } from './harness/workbench';

describe('e2e 9: coverage', function () {
  // Needs every flow: one that did not finish has already failed, and its commands would only repeat that here.
  before(function () {
    if (brokenFlows().length > 0) this.skip();
  });

  it('ran every declared command', async () => {
    const s = await session();
    const manifest = JSON.parse(readFileSync(join(s.paths.root, 'package.json'), 'utf8')) as { contributes: { commands: Array<{ command: string }> } };
    const declared = manifest.contributes.commands.map((c) => c.command);
    const ran = new Workbench(s).commandRuns();
    assert.ok(declared.length >= 25, `${declared.length} commands declared`);
    assert.deepEqual(
      declared.filter((id) => !ran.has(id)),
      [],
      'commands never run by the end-to-end suite',
    );
  });
});
