// The ledger as a file for the user: a JSON array of records or a CSV with the same columns, always in the same
// column order. Money is plain USD; an unknown cost or count (a gateway that sent no usage) is empty (CSV) or null
// (JSON), never 0: a 0 would say the request used nothing.
import type { UsageRecord } from './recordTypes';

export const EXPORT_COLUMNS = [
  'time',
  'profile',
  'surface',
  'model',
  'modality',
  'inputTokens',
  'outputTokens',
  'cachedTokens',
  'reasoningTokens',
  'images',
  'videoSeconds',
  'speechChars',
  'outcome',
  'cost',
  'costSource',
  // Added last, so the columns of earlier exports keep their places in a spreadsheet.
  'audioSeconds',
] as const;

export type ExportRow = { [K in (typeof EXPORT_COLUMNS)[number]]: string | number | null };

export function exportRow(record: UsageRecord): ExportRow {
  return {
    time: new Date(record.time).toISOString(),
    profile: record.profile,
    surface: record.surface,
    model: record.model,
    modality: record.modality,
    inputTokens: record.inputTokens ?? null,
    outputTokens: record.outputTokens ?? null,
    cachedTokens: record.cachedTokens ?? null,
    reasoningTokens: record.reasoningTokens ?? null,
    images: record.images ?? null,
    videoSeconds: record.videoSeconds ?? null,
    speechChars: record.speechChars ?? null,
    outcome: record.outcome,
    cost: record.costSource === 'unknown' || record.cost === undefined ? null : record.cost,
    costSource: record.costSource,
    audioSeconds: record.audioSeconds ?? 0,
  };
}

/** Which format a path asks for, by its extension; undefined for any other. */
export function exportFormatOf(path: string): 'json' | 'csv' | undefined {
  const lower = path.toLowerCase();
  return lower.endsWith('.json') ? 'json' : lower.endsWith('.csv') ? 'csv' : undefined;
}

/** Records in time order, as the file's text. */
export function exportText(records: readonly UsageRecord[], format: 'json' | 'csv'): string {
  const sorted = [...records].sort((a, b) => a.time - b.time);
  if (format === 'json') {
    const parts = sorted.map((r) => JSON.stringify(exportRow(r)));
    return parts.length ? `[\n${parts.join(',\n')}\n]\n` : '[]\n';
  }
  const lines = [EXPORT_COLUMNS.join(',')];
  for (const record of sorted) {
    const row = exportRow(record);
    lines.push(EXPORT_COLUMNS.map((column) => csvCell(row[column])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * One CSV cell (RFC 4180 quoting). Text that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets
 * a leading apostrophe and quotes, and so does text holding a `;`, the separator of many locales, where an unquoted
 * one would start a new cell that could itself be a formula: model and profile names come from the gateway and the user.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const formula = /^[=+\-@\t\r]/.test(value);
  const safe = formula ? `'${value}` : value;
  return formula || /[",;\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
