// What this version knows of a stored session, field by field, so that what a newer version added survives a
// round trip: a session file's unknown fields (on the session, its settings, its turns and their nested records)
// are put back, unchanged, into every file this version writes, and a turn of an unknown kind (an unknown role, or a
// media turn of an unknown kind) and an attachment of an unknown kind are written back exactly as they were read.
// Pure and browser-safe.
import { ATTACHMENT_KINDS } from './attachments';
import { MEDIA_KINDS } from './mediaTurn';
import { isId, isRecord, type Fields } from './validate';

/** Field names written as one string (the activation bundle is kept small). */
const words = (names: string): readonly string[] => names.split(' ');

/** A record's known fields, and its nested records (matched to the stored ones by position, or by `id`). */
interface Shape {
  readonly keys: readonly string[];
  readonly nested?: Readonly<Record<string, { shape: Shape; list?: 'byIndex' | 'byId' }>>;
  /** An item of a list of these is of a kind a newer version added: this version leaves it out, and writes it back. */
  readonly newer?: (item: Fields) => boolean;
}

/** A `kind` this version does not know: a word it has no meaning for (a missing or malformed one is damage). */
function isNewerKind(kind: unknown, known: readonly string[]): boolean {
  return typeof kind === 'string' && kind.length > 0 && kind.length <= 100 && !known.includes(kind);
}

const USAGE: Shape = { keys: words('prompt completion total reasoning') };
const ACTION: Shape = { keys: words('title command args') };
const ERROR: Shape = { keys: words('message kind actions retryAt'), nested: { actions: { shape: ACTION, list: 'byIndex' } } };
const TOOL_CALL: Shape = { keys: words('id name arguments') };
const APPLY: Shape = { keys: words('path outcome at') };
const ATTACHMENT: Shape = {
  keys: words('kind id source path language startLine endLine totalLines text name mimeType data'),
  newer: (item) => isId(item.id) && isNewerKind(item.kind, ATTACHMENT_KINDS),
};
const SAMPLING: Shape = { keys: words('mode value') };
const MEDIA_MODELS: Shape = { keys: words('image video speech') };
const SETTINGS: Shape = {
  keys: words('model systemPrompt sampling maxTokens stop jsonMode mediaModels reasoningEffort profile'),
  nested: { sampling: { shape: SAMPLING }, mediaModels: { shape: MEDIA_MODELS } },
};
const TURNS: Readonly<Record<string, Shape>> = {
  user: { keys: words('id role createdAt content attachments'), nested: { attachments: { shape: ATTACHMENT, list: 'byId' } } },
  assistant: {
    keys: words('id role createdAt model content reasoning refusal toolCalls status finishReason usage error omittedTurns thoughtMs applies'),
    nested: { toolCalls: { shape: TOOL_CALL, list: 'byIndex' }, usage: { shape: USAGE }, error: { shape: ERROR }, applies: { shape: APPLY, list: 'byIndex' } },
  },
  media: { keys: words('id role createdAt kind content prompt model state entryId fileName jobKey url contentType detail actions'), nested: { actions: { shape: ACTION, list: 'byIndex' } } },
};
const SESSION_KEYS = words('id title createdAt updatedAt settings turns');

/** The roles this version knows; any other is a newer version's kind of turn. */
export function isKnownRole(role: unknown): boolean {
  return typeof role === 'string' && Object.prototype.hasOwnProperty.call(TURNS, role);
}

/** A stored turn of a kind a newer version added: an unknown role, or a media turn of an unknown kind. */
export function isNewerTurn(stored: Fields): boolean {
  return typeof stored.role === 'string' && (!isKnownRole(stored.role) || (stored.role === 'media' && isNewerKind(stored.kind, MEDIA_KINDS)));
}

function unknownFields(raw: Fields, shape: Shape): Fields {
  const extra: Fields = {};
  for (const [key, value] of Object.entries(raw)) if (!shape.keys.includes(key)) extra[key] = value;
  return extra;
}

/** `written` (this version's form of a record) with the unknown fields of `stored` (the same record as read) added. */
function overlay(written: unknown, stored: unknown, shape: Shape): unknown {
  if (!isRecord(written) || !isRecord(stored)) return written;
  const result: Fields = { ...written };
  for (const [key, { shape: inner, list }] of Object.entries(shape.nested ?? {})) {
    const mine = written[key];
    const theirs = stored[key];
    if (list === undefined) result[key] = overlay(mine, theirs, inner);
    else if (Array.isArray(theirs) && (Array.isArray(mine) || (mine === undefined && inner.newer))) {
      const byId = new Map(theirs.filter(isRecord).map((item) => [item.id, item]));
      const items = ((mine ?? []) as unknown[]).map((item: unknown, i) => overlay(item, list === 'byIndex' ? theirs[i] : isRecord(item) ? byId.get(item.id) : undefined, inner));
      const kept = inner.newer ? withNewerItems(items, theirs, inner.newer) : items;
      if (mine !== undefined || kept.length > 0) result[key] = kept;
    }
  }
  return { ...result, ...unknownFields(stored, shape) };
}

/**
 * `items` (this version's list, matched by id) with the stored items of a newer kind put back where they were: each
 * stored item in its stored order, this version's own new items after them.
 */
function withNewerItems(items: readonly unknown[], stored: readonly unknown[], isNewer: (item: Fields) => boolean): unknown[] {
  if (!stored.some((item) => isRecord(item) && isNewer(item))) return [...items];
  const mine = new Map(items.filter(isRecord).map((item) => [item.id, item]));
  const result: unknown[] = [];
  const placed = new Set<unknown>();
  for (const item of stored) {
    if (!isRecord(item)) continue;
    if (isNewer(item)) result.push(item);
    else if (mine.has(item.id) && !placed.has(item.id)) {
      result.push(mine.get(item.id));
      placed.add(item.id);
    }
  }
  for (const item of items) if (!isRecord(item) || !placed.has(item.id)) result.push(item);
  return result;
}

/** A stored record with only the fields this version knows (to tell a repaired turn from a newer one). */
function knownOnly(stored: unknown, shape: Shape): unknown {
  if (!isRecord(stored)) return stored;
  const result: Fields = {};
  for (const key of shape.keys) {
    if (!Object.prototype.hasOwnProperty.call(stored, key)) continue;
    const nested = shape.nested?.[key];
    const value = stored[key];
    if (!nested) result[key] = value;
    else if (!nested.list || !Array.isArray(value)) result[key] = knownOnly(value, nested.shape);
    else {
      const isNewer = nested.shape.newer;
      const known = isNewer ? value.filter((item) => !(isRecord(item) && isNewer(item))) : value;
      // A list that held only a newer version's items is, to this version, no list.
      if (known.length > 0 || known.length === value.length) result[key] = known.map((item) => knownOnly(item, nested.shape));
    }
  }
  return result;
}

/** A stored turn without the fields a newer version added (a turn of an unknown kind is returned as it is). */
export function knownTurnFields(stored: unknown): unknown {
  const shape = isRecord(stored) && !isNewerTurn(stored) ? TURNS[stored.role as string] : undefined;
  return shape ? knownOnly(stored, shape) : stored;
}

/**
 * The session as this version writes it (`written`: plain JSON data of the session), with everything `stored`
 * (the session in the file being replaced) holds that this version does not know put back.
 */
export function withUnknownFields(written: Fields, stored: unknown): Fields {
  if (!isRecord(stored)) return written;
  const storedTurns = new Map<string, Fields>();
  if (Array.isArray(stored.turns)) for (const turn of stored.turns) if (isRecord(turn) && isId(turn.id)) storedTurns.set(turn.id, turn);
  const turns = Array.isArray(written.turns)
    ? written.turns.map((turn: unknown) => {
        const old = isRecord(turn) ? storedTurns.get(turn.id as string) : undefined;
        const shape = isRecord(turn) && old && old.role === turn.role ? TURNS[turn.role as string] : undefined;
        return shape ? overlay(turn, old, shape) : turn;
      })
    : written.turns;
  return { ...written, settings: overlay(written.settings, stored.settings, SETTINGS), turns, ...unknownFields(stored, { keys: SESSION_KEYS }) };
}
