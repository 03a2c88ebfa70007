import * as assert from 'node:assert/strict';
import { csvCell, EXPORT_COLUMNS, exportFormatOf, exportText } from '../../../src/usage/core/exportFormat';
import { sampleRecord } from './sample';

describe('usage export format', () => {
  const records = [sampleRecord({ time: Date.UTC(2026, 0, 2) }), sampleRecord({ time: Date.UTC(2026, 0, 1), model: '=cmd()', cost: undefined, costSource: 'unknown', outcome: 'error' })];

  it('writes a JSON array of records with exactly the documented fields, in time order', () => {
    const rows = JSON.parse(exportText(records, 'json')) as Array<Record<string, unknown>>;
    assert.equal(rows.length, 2);
    assert.deepEqual(Object.keys(rows[0]!), [...EXPORT_COLUMNS]);
    assert.equal(rows[0]!.time, '2026-01-01T00:00:00.000Z');
    assert.equal(rows[0]!.cost, null);
    assert.equal(rows[0]!.costSource, 'unknown');
    assert.equal(rows[1]!.cost, 0.000521);
    assert.equal(rows[1]!.inputTokens, 1834);
    assert.equal(exportText([], 'json'), '[]\n');
  });

  it('writes CSV with the same columns, quoting and defusing formulas; an unknown cost is empty, not 0', () => {
    const lines = exportText(records, 'csv').trimEnd().split('\r\n');
    assert.equal(lines[0], EXPORT_COLUMNS.join(','));
    assert.equal(lines.length, 3);
    const cells = lines[1]!.split(',');
    assert.equal(cells[3], `"'=cmd()"`);
    assert.equal(cells[13], '');
    assert.equal(csvCell('a,"b"'), '"a,""b"""');
    assert.equal(csvCell(0), '0');
  });

  it('quotes a cell a spreadsheet could run or split: formula starts, and a `;` (the separator in many locales)', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) assert.equal(csvCell(`${start}1+1`), `"'${start}1+1"`, JSON.stringify(start));
    assert.equal(csvCell('a;=SUM(A1)'), '"a;=SUM(A1)"');
    assert.equal(csvCell('gpt-4o'), 'gpt-4o');
  });

  it('writes a count the gateway never sent as unknown (an empty cell, null), never 0', () => {
    const noUsage = sampleRecord({ inputTokens: undefined, outputTokens: undefined, cachedTokens: undefined, reasoningTokens: undefined, cost: undefined, costSource: 'unknown' });
    const [row] = JSON.parse(exportText([noUsage], 'json')) as Array<Record<string, unknown>>;
    for (const column of ['inputTokens', 'outputTokens', 'cachedTokens', 'reasoningTokens', 'images', 'videoSeconds', 'speechChars', 'cost']) assert.equal(row![column], null, column);
    const cells = exportText([noUsage], 'csv').trimEnd().split('\r\n')[1]!.split(',');
    for (const column of ['inputTokens', 'outputTokens', 'images', 'cost']) assert.equal(cells[EXPORT_COLUMNS.indexOf(column as (typeof EXPORT_COLUMNS)[number])], '', column);
  });

  it('knows the format by the extension', () => {
    assert.equal(exportFormatOf('/x/Usage.JSON'), 'json');
    assert.equal(exportFormatOf('/x/u.csv'), 'csv');
    assert.equal(exportFormatOf('/x/u.txt'), undefined);
  });
});
