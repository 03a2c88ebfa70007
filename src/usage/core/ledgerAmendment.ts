// A later fact about a record already on disk (a cost looked up after the call: generationCost.ts), as a line of its
// own: `{"am":<record id>,"t":<the record's time>,"$":<USD>,"cs":"r"}`. Ledger files are append-only and every
// window writes only its own, so a record is never rewritten; the reader folds each amendment over the record it
// names (in whichever window's file either is). The amendment is written in the record's month, so a read of that
// month sees both.
import { isRecord } from '../../util/records';
import { amountOf, MAX_REPORTED_COST } from './numbers';
import type { UsageRecord } from './recordTypes';

export interface CostAmendment {
  /** The amended record's id (UsageRecord.id). */
  record: string;
  /** The amended record's time: where the amendment is filed. */
  time: number;
  cost: number;
  costSource: 'reported';
}

const MAX_ID_CHARS = 64;

export function encodeAmendment(amendment: CostAmendment): string {
  return JSON.stringify({ am: amendment.record, t: amendment.time, $: Number(amendment.cost.toPrecision(12)), cs: 'r' });
}

/** The amendment a line holds, or undefined when it holds none (a record, or damage). */
export function decodeAmendment(line: string): CostAmendment | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || typeof value.am !== 'string' || value.am.length === 0 || value.am.length > MAX_ID_CHARS) return undefined;
  const time = value.t;
  const cost = amountOf(value.$, MAX_REPORTED_COST);
  if (typeof time !== 'number' || !Number.isSafeInteger(time) || time < 0 || cost === undefined || value.cs !== 'r') return undefined;
  return { record: value.am, time, cost, costSource: 'reported' };
}

/** The records with their amendments folded in (the last amendment of a record wins); the records are not changed. */
export function foldAmendments(records: UsageRecord[], amendments: readonly CostAmendment[]): UsageRecord[] {
  if (amendments.length === 0) return records;
  const byRecord = new Map(amendments.map((a) => [a.record, a]));
  return records.map((record) => {
    const amendment = record.id === undefined ? undefined : byRecord.get(record.id);
    return amendment ? { ...record, cost: amendment.cost, costSource: amendment.costSource } : record;
  });
}
