// Profiles and the usage ledger from the workbench: a second profile created from the palette, switched to from the
// status bar's menu and back from its Profiles… menu, then deleted after asking; the usage ledger exported to CSV
// through VS Code's save dialog, and cleared after asking.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useE2E } from './harness/suite';
import { until, WAIT_MS } from './harness/workbench';

describe('e2e 7e: profiles and usage', function () {
  this.timeout(4 * WAIT_MS);
  const e = useE2E('profiles', ['firstRun']);
  const statusSays = (text: RegExp, what: string) => until(async () => text.test(await e.wb.status().innerText()), what);

  it('creates a second profile, switches to it from the status bar, and back from its Profiles… menu', async () => {
    await e.wb.closeToasts();
    await e.wb.runCommand('Model Gateway: Create Profile…');
    await e.wb.answerInput('Work', /New profile \(1\/3\)/);
    await e.wb.answerInput(e.s.sim.baseUrl, /New profile "Work" \(2\/3\)/);
    await e.wb.answerInput('25', /New profile "Work" \(3\/3\)/);
    await e.wb.toast(/Created the profile "Work"/).first().waitFor({ timeout: WAIT_MS });
    await e.wb.closeToasts();
    // With two profiles the status bar names the active one, which has not changed.
    await statusSays(/· Default/, 'the status bar to name the Default profile');
    await e.wb.status().click();
    await e.wb.pick(/Switch Profile…/);
    await e.wb.pick(/^Work/);
    await statusSays(/· Work/, 'the status bar to show the Work profile');
    await e.wb.status().click();
    await e.wb.pick(/Profiles…/);
    await e.wb.pick(/Switch Profile…/);
    await e.wb.pick(/^Default/);
    await statusSays(/· Default/, 'the status bar to show the Default profile again');
  });

  it('deletes the second profile after asking, and the status bar names no profile again', async () => {
    await e.wb.runCommand('Model Gateway: Delete Profile…');
    await e.wb.pick(/^Work/);
    await e.wb.dialogButton('Delete Profile');
    await until(async () => !(await e.wb.status().innerText()).includes('·'), 'the status bar to name no profile');
  });

  it('exports the usage ledger to CSV through the save dialog, and clears it after asking', async () => {
    await e.wb.runCommand('Model Gateway: Export Usage…');
    const input = e.wb.quickInputBox();
    await until(async () => /model-gateway-usage-.*\.csv$/.test(await input.inputValue()), 'the proposed file name');
    await input.press('Enter');
    const exported = await until(() => readdirSync(e.s.paths.workspace).find((f) => /^model-gateway-usage-.*\.csv$/.test(f)), 'the exported file');
    const lines = readFileSync(join(e.s.paths.workspace, exported), 'utf8').trim().split('\n');
    assert.match(lines[0], /^time,profile,surface,model,modality,/);
    assert.ok(lines.some((line) => line.includes(',chat,')), 'the chats of the earlier flows are in the ledger');
    await e.wb.runCommand('Model Gateway: Clear Usage…');
    await e.wb.dialogButton('Clear Usage');
    await until(() => e.wb.commandRuns().has('modelGateway.clearUsage'), 'Clear Usage to run');
  });
});
