// The shared JSON file changed under its lock: a change reads what is there now, a damaged file is set aside (never
// overwritten), and changes made at once in one process all land (the processes' case: paceFileProcesses.test.ts).
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realClock } from '../../../src/util/clock';
import { LockedJsonFile } from '../../../src/util/lockedJsonFile';

describe('a JSON file changed under its lock', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mg-locked-json-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const add = (file: LockedJsonFile, item: string) =>
    file.update((raw) => {
      const items = Array.isArray((raw as { items?: unknown })?.items) ? (raw as { items: string[] }).items : [];
      return { next: { ...(raw as object), items: [...items, item] }, result: items.length };
    });

  it('keeps every change of several writers at once, and what it does not know', async () => {
    writeFileSync(join(dir, 'shared.json'), JSON.stringify({ newer: { a: 1 } }));
    const writers = [0, 1, 2].map(() => LockedJsonFile.at(join(dir, 'shared.json'), realClock));
    await Promise.all(writers.flatMap((file, w) => Array.from({ length: 10 }, (_, i) => add(file, `${w}-${i}`))));
    const stored = JSON.parse(readFileSync(join(dir, 'shared.json'), 'utf8')) as { items: string[]; newer: unknown };
    assert.equal(new Set(stored.items).size, 30);
    assert.deepEqual(stored.newer, { a: 1 });
    assert.deepEqual(readdirSync(dir), ['shared.json'], 'no lock or temp file is left');
  });

  it('sets a damaged file aside and starts afresh; reading without the lock sees nothing there', async () => {
    writeFileSync(join(dir, 'shared.json'), '{"items": ["a", ');
    const file = LockedJsonFile.at(join(dir, 'shared.json'), realClock);
    assert.equal(await file.read(), undefined);
    assert.equal(await add(file, 'b'), 0);
    const aside = readdirSync(dir).filter((name) => name.startsWith('shared.json.damaged-'));
    assert.equal(aside.length, 1);
    assert.equal(readFileSync(join(dir, aside[0]!), 'utf8'), '{"items": ["a", ');
    assert.deepEqual(await file.read(), { items: ['b'] });
  });
});
