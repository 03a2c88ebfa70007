// Each declared command id is written once in src/: in its feature's command table (`<feature>/vscode/commands.ts`,
// Each declared command id is written once in src/: in its feature's command table (`<feature>/vscode/commands.ts`,
// or its definition, feature.ts, where the table is still kept there), or, when other folders name it (advice
// buttons, the status bar menu, @gateway's buttons), in ui/core/commandIds.ts or the feature's `core/api.ts`, which
// the table uses. Everything else refers to it through those typed constants.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '../../../..');
const declared: string[] = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).contributes.commands.map((c: { command: string }) => c.command);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Where each declared id is written as a quoted string in src/. */
function occurrences(): Map<string, string[]> {
  const files = sources(join(root, 'src')).map((file) => ({ path: relative(join(root, 'src'), file).split('\\').join('/'), text: readFileSync(file, 'utf8') }));
  const found = new Map<string, string[]>();
  for (const id of declared) {
    const where: string[] = [];
    for (const file of files) for (const quote of ["'", '"', '`']) if (file.text.split(`${quote}${id}${quote}`).length > 1) where.push(...Array(file.text.split(`${quote}${id}${quote}`).length - 1).fill(file.path));
    found.set(id, where);
  }
  return found;
}

describe('command ids (issue 22)', () => {
  const found = occurrences();

  it("writes each declared command id in a feature's command table, its core/api.ts, or ui/core/commandIds.ts", () => {
    const homeless = declared.filter((id) => !found.get(id)!.some((path) => /^[^/]+\/vscode\/(commands|feature)\.ts$|^[^/]+\/core\/api\.ts$/.test(path) || path === 'ui/core/commandIds.ts'));
    assert.deepEqual(homeless, [], 'ids no command table declares');
  });

  it('writes them at most 1.5 times each on average, and none more than twice', () => {
    const total = [...found.values()].reduce((sum, where) => sum + where.length, 0);
    const average = total / declared.length;
    assert.ok(declared.length >= 40, `${declared.length} declared`);
    assert.ok(average <= 1.5, `${average.toFixed(2)} per id`);
    const repeated = [...found].filter(([, where]) => where.length > 2).map(([id, where]) => `${id}: ${where.join(', ')}`);
    assert.deepEqual(repeated, []);
  });
});
