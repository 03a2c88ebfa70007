// API keys live in SecretStorage, one per gateway origin, so a key is only ever sent to the origin it was
// saved for: switching the base URL to another host finds no key there instead of reusing the old one.
import { createHash } from 'node:crypto';
import { Emitter, type Event } from '../../util/events';
import type { Memento } from '../../util/memento';

/** The part of VS Code's SecretStorage this store needs. */
export interface SecretBackend {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}


const SECRET_PREFIX = 'modelGateway.apiKey:';
const STORED_ORIGINS = 'modelGateway.keyOrigins.v1';

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
    private readonly secrets: SecretBackend,
    private readonly memento: Memento,
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
    await this.rememberOrigin(origin, true);
    this.announce(origin, rawKey.trim());
    return validation;
  }

  async clear(origin: string): Promise<void> {
    await this.secrets.delete(SECRET_PREFIX + origin);
    await this.rememberOrigin(origin, false);
    this.announce(origin, undefined);
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
    if (!secretKey.startsWith(SECRET_PREFIX)) return;
    const origin = secretKey.slice(SECRET_PREFIX.length);
    this.announce(origin, await this.get(origin));
  }

  private announce(origin: string, key: string | undefined): void {
    const digest = key === undefined ? undefined : createHash('sha256').update(key).digest('hex');
    if (this.announced.has(origin) && this.announced.get(origin) === digest) return;
    this.announced.set(origin, digest);
    this.changed.fire(origin);
  }

  private async rememberOrigin(origin: string, present: boolean): Promise<void> {
    const origins = new Set(this.storedOrigins());
    if (present) origins.add(origin);
    else origins.delete(origin);
    await this.memento.update(STORED_ORIGINS, [...origins]);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
