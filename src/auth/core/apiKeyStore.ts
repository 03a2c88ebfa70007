// API keys live in SecretStorage, one per gateway origin, so a key is only ever sent to the origin it was
// saved for: switching the base URL to another host finds no key there instead of reusing the old one. The values
// of a profile's extra headers live beside its key, in the same slot (api-key, Helicone-Auth and the like are
// credentials too): the profile list and the settings keep only the header names.
import { createHash } from 'node:crypto';
import { Emitter, type Event } from '../../util/events';
import type { Memento } from '../../util/memento';
import { readHeaders } from '../../settings/settings';

/** The part of VS Code's SecretStorage this store needs. */
export interface SecretBackend {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}


const SECRET_PREFIX = 'modelGateway.apiKey:';
const STORED_ORIGINS = 'modelGateway.keyOrigins.v1';
/** Where a slot's header values are kept; they are written by headerSecrets.ts (loaded on first use). */
export const HEADERS_PREFIX = 'modelGateway.headerValues:';
export const HEADER_SLOTS = 'modelGateway.headerSlots.v1';
/** Bounds of what is read back: a profile has at most 32 headers of at most 8 KB (settings/profileCheck.ts). */
const MAX_HEADER_SECRET = 300 * 1024;

export type KeyValidation = { ok: true; warning?: string } | { ok: false; reason: string };

export function validateKeyInput(raw: string | undefined): KeyValidation {
  const key = (raw ?? '').trim();
  if (!key) return { ok: false, reason: 'The API key cannot be empty.' };
  if (/\s/.test(key)) return { ok: false, reason: 'The API key cannot contain spaces or line breaks.' };
  if (!key.startsWith('sk-')) return { ok: true, warning: 'This key does not start with "sk-", the prefix the gateway gives its keys. It was saved anyway.' };
  return { ok: true };
}

export class ApiKeyStore {
  private readonly changed = new Emitter<string>();
  /** A digest of the key last announced per origin, so SecretStorage's echo of our own write is not news. */
  private readonly announced = new Map<string, string | undefined>();
  /** Fires with the origin whose key was set, replaced or cleared. */
  readonly onDidChange: Event<string> = this.changed.event;

  constructor(
    readonly secrets: SecretBackend,
    readonly memento: Memento,
  ) {}

  async get(origin: string): Promise<string | undefined> {
    return (await this.secrets.get(SECRET_PREFIX + origin)) || undefined;
  }

  async has(origin: string): Promise<boolean> {
    return (await this.get(origin)) !== undefined;
  }

  async set(origin: string, rawKey: string): Promise<KeyValidation> {
    const validation = validateKeyInput(rawKey);
    if (!validation.ok) return validation;
    await this.secrets.store(SECRET_PREFIX + origin, rawKey.trim());
    await this.remember(STORED_ORIGINS, origin, true);
    this.announce(origin, rawKey.trim());
    return validation;
  }

  async clear(origin: string): Promise<void> {
    await this.secrets.delete(SECRET_PREFIX + origin);
    await this.remember(STORED_ORIGINS, origin, false);
    this.announce(origin, undefined);
  }

  /** The header values kept for a slot (name to value); empty when none or unreadable. */
  async headerValues(slot: string): Promise<Record<string, string>> {
    return readHeaderValues(await this.secrets.get(HEADERS_PREFIX + slot));
  }

  /** Origins for which a key was saved and not cleared (no secrets: only where keys were). */
  storedOrigins(): string[] {
    return this.memento.get<string[]>(STORED_ORIGINS) ?? [];
  }

  /**
   * Origins whose key was saved but is gone: what happens when VS Code could reach no keyring and kept
   * secrets in memory only, so they vanished with the last restart.
   */
  async lostOrigins(): Promise<string[]> {
    const lost: string[] = [];
    for (const origin of this.storedOrigins()) if (!(await this.has(origin))) lost.push(origin);
    return lost;
  }

  /** Stops remembering origins whose key is known to be lost (after the user was told). */
  async forget(origins: string[]): Promise<void> {
    const drop = new Set(origins);
    await this.memento.update(STORED_ORIGINS, this.storedOrigins().filter((o) => !drop.has(o)));
  }

  /**
   * Fed by SecretStorage.onDidChange, so a key changed in another window updates this one. The same event
   * echoes our own writes; those are dropped, or every save would replace the client twice.
   */
  async notifyExternalChange(secretKey: string): Promise<void> {
    if (secretKey.startsWith(HEADERS_PREFIX)) {
      this.announce(secretKey, (await this.secrets.get(secretKey)) || undefined);
      return;
    }
    if (!secretKey.startsWith(SECRET_PREFIX)) return;
    const origin = secretKey.slice(SECRET_PREFIX.length);
    this.announce(origin, await this.get(origin));
  }

  /** `what`: the slot of a key, or the name of a slot's header secret; either way the slot is fired. */
  private announce(what: string, secret: string | undefined): void {
    const slot = what.startsWith(HEADERS_PREFIX) ? what.slice(HEADERS_PREFIX.length) : what;
    const digest = secret === undefined ? undefined : createHash('sha256').update(secret).digest('hex');
    if (this.announced.has(what) && this.announced.get(what) === digest) return;
    this.announced.set(what, digest);
    this.changed.fire(slot);
  }


  /** Adds a slot to, or drops it from, a remembered list (where keys or header values were saved). */
  async remember(list: string, slot: string, present: boolean): Promise<void> {
    const slots = new Set(this.memento.get<string[]>(list) ?? []);
    if (present) slots.add(slot);
    else slots.delete(slot);
    await this.memento.update(list, [...slots]);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Header values as kept in SecretStorage (a JSON object of header names to values), read with bounds. */
function readHeaderValues(text: string | undefined): Record<string, string> {
  try {
    const values = text && text.length <= MAX_HEADER_SECRET ? readHeaders(JSON.parse(text), []) : {};
    return Object.fromEntries(Object.entries(values).filter(([, value]) => value));
  } catch {
    return {};
  }
}
