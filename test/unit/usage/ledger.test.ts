import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ledger, monthOf } from '../../../src/usage/core/ledger';
import { decodeRecord, encodeRecord } from '../../../src/usage/core/ledgerLine';
import { summarize } from '../../../src/usage/core/summary';
import { SAMPLE_TIME, sampleRecord } from './sample';

const T = SAMPLE_TIME;

describe('usage ledger', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mg-usage-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('encodes a record on one short line and reads it back, unknown fields included', () => {
    const record = sampleRecord({ images: 2, imageBytes: 300_000, imageSize: '1024x1024', videoSeconds: 4.5, speechChars: 9 });
    const line = encodeRecord(record);
    assert.ok(!line.includes('\n'));
    assert.deepEqual(decodeRecord(line), record);
    const newer = decodeRecord(line.replace('{', '{"future":{"a":1},'))!;
    assert.deepEqual(newer.unknown, { future: { a: 1 } });
    assert.ok(encodeRecord(newer).includes('"future":{"a":1}'));
    const { cost: _cost, ...unknown } = sampleRecord({ costSource: 'unknown' });
    assert.deepEqual(decodeRecord(encodeRecord(unknown)), unknown);
    // The profile's id round-trips; a record written before ids were kept reads without one.
    const withId = sampleRecord({ profile: 'Work', profileId: 'p-0a1b2c' });
    assert.deepEqual(decodeRecord(encodeRecord(withId)), withId);
    assert.equal(decodeRecord(encodeRecord(sampleRecord()))!.profileId, undefined);
    assert.equal(decodeRecord(encodeRecord(withId).replace('"pi":"p-0a1b2c"', '"pi":7')), undefined, 'an id that is not text is damage');
  });

  it('stays compact: 200,000 heavy records take under 50 MB', () => {
    const line = encodeRecord(sampleRecord({ profileId: 'p-0a1b2c3d4e5f', workspace: 'a-rather-long-workspace-name', model: 'anthropic/claude-3-7-sonnet-20250219', surface: 'vscode-chat' }));
    assert.ok((line.length + 1) * 200_000 < 50 * 1024 * 1024, `${line.length} bytes a line`);
  });

  it('keeps a record with a newer value of a known field (a modality, outcome or cost source this version lacks), counted where it can be', () => {
    const line = encodeRecord(sampleRecord()).replace('"k":"c"', '"k":"a"').replace('"x":"o"', '"x":"t"').replace('"cs":"e"', '"cs":"q"');
    const record = decodeRecord(line);
    assert.ok(record, 'not set aside as damage');
    assert.deepEqual([record.modality, record.outcome, record.costSource, record.cost, record.inputTokens], ['a', 't', 'q', 0.000521, 1834]);
    assert.equal(encodeRecord(record), line, 'written back as read');
    // Its cost, tokens and request count; its source is kept, its figure still counts.
    const totals = summarize([record], { period: 'all', stackBy: 'modality', groupBy: 'model', now: T }).totals;
    assert.deepEqual([totals.requests, totals.errors, totals.cost, totals.unknownCost, totals.inputTokens], [1, 0, 0.000521, 0, 1834]);
    // A newer source without a figure is an unknown cost, never $0.00.
    const noFigure = decodeRecord(line.replace(/"\$":[0-9.e-]+,/, ''));
    assert.ok(noFigure);
    assert.equal(summarize([noFigure], { period: 'all', stackBy: 'modality', groupBy: 'model', now: T }).totals.unknownCost, 1);
    // Still damage: a value that is not text.
    assert.equal(decodeRecord(line.replace('"k":"a"', '"k":7')), undefined);
  });

  it('refuses damaged lines rather than guessing', () => {
    for (const bad of ['', '{', '[]', '{"t":-1,"p":"","w":"","s":"","m":"","k":"c","x":"o","cs":"u"}', encodeRecord(sampleRecord()).replace('"i":1834', '"i":-5'), encodeRecord(sampleRecord()).replace('"$":0.000521', '"$":"1e5"')]) {
      assert.equal(decodeRecord(bad), undefined, bad);
    }
  });

  it('two windows appending at once lose nothing and never share a file', async () => {
    const a = new Ledger(dir, 'window-a');
    const b = new Ledger(dir, 'window-b');
    await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).append(sampleRecord({ time: T + i, inputTokens: i }))));
    const { records, damaged } = await new Ledger(dir, 'reader').read();
    assert.equal(records.length, 100);
    assert.deepEqual(damaged, []);
    assert.deepEqual(records.map((r) => r.inputTokens).sort((x, y) => x! - y!), Array.from({ length: 100 }, (_, i) => i));
    assert.deepEqual(readdirSync(join(dir, 'usage', monthOf(T))).sort(), ['window-a.jsonl', 'window-b.jsonl']);
  });

  it('reads of different periods at once count each record once (the status bar and the dashboard read together)', async () => {
    const writer = new Ledger(dir, 'writer');
    const reader = new Ledger(dir, 'reader');
    await Promise.all(Array.from({ length: 50 }, (_, i) => writer.append(sampleRecord({ time: T + i, inputTokens: i }))));
    const [all, recent] = await Promise.all([reader.read(), reader.read(T)]);
    assert.equal(all.records.length, 50);
    assert.equal(recent.records.length, 50);
    assert.equal((await reader.read()).records.length, 50);
  });

  it('reads incrementally what other windows append later', async () => {
    const reader = new Ledger(dir, 'reader');
    const writer = new Ledger(dir, 'writer');
    await writer.append(sampleRecord());
    assert.equal((await reader.read()).records.length, 1);
    await writer.append(sampleRecord({ time: T + 1 }));
    assert.equal((await reader.read()).records.length, 2);
  });

  it('keeps a damaged region apart without losing the records around it', async () => {
    const ledger = new Ledger(dir, 'w');
    await ledger.append(sampleRecord({ inputTokens: 1 }));
    const file = join(dir, 'usage', monthOf(T), 'w.jsonl');
    appendFileSync(file, '{"t":17000\u0000garbage\n\u00ff\u00fe not json at all\n');
    await ledger.append(sampleRecord({ inputTokens: 2 }));
    const { records, damaged } = await new Ledger(dir, 'reader').read();
    assert.deepEqual(records.map((r) => r.inputTokens), [1, 2]);
    assert.deepEqual(damaged.map((d) => d.line), [2, 3]);
    const aside = readFileSync(join(dir, 'usage', 'damaged', `${monthOf(T)}-w.jsonl.txt`), 'utf8');
    assert.match(aside, /^2\t\{"t":17000/);
    assert.match(aside, /\n3\t/);
  });

  it('leaves a torn last line (a crash mid-write) unread, and a later line after it still counts', async () => {
    const ledger = new Ledger(dir, 'w');
    await ledger.append(sampleRecord());
    const file = join(dir, 'usage', monthOf(T), 'w.jsonl');
    appendFileSync(file, encodeRecord(sampleRecord()).slice(0, 30));
    const reader = new Ledger(dir, 'reader');
    assert.equal((await reader.read()).records.length, 1);
    // The writer starts its next append on a new line when its last write may have been cut (here: a second
    // process wrote the tail, so the torn part becomes a damaged line of its own).
    appendFileSync(file, `\n${encodeRecord(sampleRecord({ inputTokens: 5 }))}\n`);
    const after = await reader.read();
    assert.deepEqual(after.records.map((r) => r.inputTokens), [1834, 5]);
    assert.equal(after.damaged.length, 1);
  });

  it('starts the append after a partial write (a full disk) on a new line, so the torn part does not take that record with it', async () => {
    let full = true;
    const ledger = new Ledger(dir, 'w', async (path) => {
      const handle = await open(path, 'a');
      if (!full) return handle;
      full = false;
      // The disk takes half the line, then is full.
      return { write: async (text: string) => (await handle.write(text.slice(0, 30)), Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }))), datasync: () => handle.datasync(), close: () => handle.close() };
    });
    await assert.rejects(ledger.append(sampleRecord({ inputTokens: 1 })), /no space/);
    await ledger.append(sampleRecord({ inputTokens: 2 }));
    const { records, damaged } = await new Ledger(dir, 'reader').read();
    assert.deepEqual(records.map((r) => r.inputTokens), [2]);
    assert.equal(damaged.length, 1);
  });

  it('refuses an overlong line without buffering it whole', async () => {
    mkdirFor(dir);
    writeFileSync(join(dir, 'usage', monthOf(T), 'x.jsonl'), `${'x'.repeat(200_000)}\n${encodeRecord(sampleRecord())}\n`);
    const { records, damaged } = await new Ledger(dir, 'r').read();
    assert.equal(records.length, 1);
    assert.equal(damaged.length, 1);
  });

  it('reads only the months a period can hold when asked from a time on', async () => {
    const ledger = new Ledger(dir, 'w');
    await ledger.append(sampleRecord({ time: Date.UTC(2026, 5, 10) }));
    await ledger.append(sampleRecord());
    assert.deepEqual((await new Ledger(dir, 'r').read(T - 86_400_000)).records.map((r) => r.time), [T]);
    const reader = new Ledger(dir, 'r2');
    assert.equal((await reader.read()).records.length, 2);
    assert.equal((await reader.read(T)).records.length, 1);
  });

  it('prunes months past retention, and clears everything but what was set aside', async () => {
    const ledger = new Ledger(dir, 'w');
    const old = Date.UTC(2024, 0, 15);
    await ledger.append(sampleRecord({ time: old }));
    await ledger.append(sampleRecord());
    assert.deepEqual(await ledger.prune(T, 0), { months: [], records: 0 });
    assert.deepEqual(await ledger.prune(T, 365), { months: ['2024-01'], records: 1 });
    assert.deepEqual((await ledger.read()).records.map((r) => r.time), [T]);
    appendFileSync(join(dir, 'usage', monthOf(T), 'w.jsonl'), 'damaged\n');
    await ledger.read();
    await ledger.clear();
    assert.deepEqual((await ledger.read()).records, []);
    assert.deepEqual(readdirSync(join(dir, 'usage')), ['damaged']);
    await ledger.append(sampleRecord());
    assert.equal((await new Ledger(dir, 'r').read()).records.length, 1);
  });
});

describe('the ledger\'s retention against a clock that jumped', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mg-ledger-clock-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('counts at most a day past the newest record, so a clock years ahead removes nothing recent', async () => {
    const ledger = new Ledger(dir, 'w');
    const months = [Date.UTC(2026, 0, 10), Date.UTC(2026, 1, 10), Date.UTC(2026, 2, 10)];
    for (const time of months) await ledger.append(sampleRecord({ time }));
    const jumped = Date.UTC(2031, 0, 1);
    assert.deepEqual(await ledger.prune(jumped, 30), { months: ['2026-01'], records: 1 }, 'only what is 30 days older than the newest record');
    assert.deepEqual((await new Ledger(dir, 'r').read()).records.map((r) => r.time), months.slice(1));
  });

  it('removes nothing when there is no record to date the clock by', async () => {
    mkdirFor(dir);
    writeFileSync(join(dir, 'usage', monthOf(T), 'x.jsonl'), 'damaged\n');
    assert.deepEqual(await new Ledger(dir, 'w').prune(T + 10 * 365 * 86_400_000, 1), { months: [], records: 0 });
  });
});

function mkdirFor(dir: string): void {
  require('node:fs').mkdirSync(join(dir, 'usage', monthOf(T)), { recursive: true });
}
