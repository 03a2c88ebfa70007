// The profile list: one JSON file in the global storage folder (user level: no workspace and no cloned repository
// can change it), shared by every window. Each change reads the file afresh under its lock, applies the change and
// replaces the file with the one atomic write, so N windows editing at once lose nothing. A file that cannot be
// read is moved aside (never emptied, never overwritten) and the user is told where it went.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../../util/atomicFile';
import type { Clock } from '../../util/clock';
import { Emitter, type Event } from '../../util/events';
import { withFileLock, type LockOptions } from '../../util/fileLock';
import { isRecord } from '../../util/records';
import { processIsAlive, watchFolder, type StoreFileSystem } from '../../util/storeFileSystem';
import { defaultProfile, findProfile, isDefaultProfile, type ModelKind, type Profile, type ProfileInput } from '../../settings/profile';
import { boundedUnknown, checkProfileInput, freeName, readProfile, writeProfile } from '../../settings/profileCheck';

export const PROFILES_FILE = 'profiles.json';
const MAX_BYTES = 1024 * 1024;
const TOO_LARGE = 'too-large';
const TOO_LARGE_PROBLEM = 'The profile list would grow past 1 MB, more than it can be read back; nothing was changed.';

export type ProfileResult = { ok: true; profile: Profile } | { ok: false; problem: string };

export class ProfileStore {
  private readonly changed = new Emitter<readonly Profile[]>();
  /** Fires with the new list when this window or another changed it. */
  readonly onDidChange: Event<readonly Profile[]> = this.changed.event;
  /** Fires with the path a damaged list was moved to. */
  private readonly setAsideEmitter = new Emitter<string>();
  readonly onDidSetAside: Event<string> = this.setAsideEmitter.event;
  private current: readonly Profile[] = [defaultProfile()];
  private lastText: string | undefined;
  private readonly lock: LockOptions;
  private watcher: { dispose(): void } | undefined;

  constructor(
    private readonly fs: StoreFileSystem,
    clock: Clock,
    private readonly newId: () => string = () => `p-${randomBytes(6).toString('hex')}`,
  ) {
    this.lock = { clock, pid: process.pid, isAlive: processIsAlive };
  }

  /** The file the list is kept in. */
  get path(): string {
    return join(this.fs.location, PROFILES_FILE);
  }

  /** The profiles as last read, without retired ones (see Profile.retired); Default always among them. */
  get profiles(): readonly Profile[] {
    return this.current.filter((p) => !p.retired);
  }

  /** Every profile in the list, retired ones too (their jobs still run). */
  get all(): readonly Profile[] {
    return this.current;
  }

  get(idOrName: unknown): Profile | undefined {
    return findProfile(this.profiles, idOrName);
  }

  /**
   * Reads the list; the first start after the update writes it with the Default profile alone (its URL, headers
   * and key are the ones set before). Then follows the file, so another window's change shows here.
   */
  async load(watch = true): Promise<readonly Profile[]> {
    await this.update(() => undefined);
    if (watch && !this.watcher) this.watcher = watchFolder(this.fs.location, (name) => name === PROFILES_FILE && void this.reload());
    return this.current;
  }

  /** Re-reads the file (another window wrote it). */
  async reload(): Promise<void> {
    const text = await this.fs.read(PROFILES_FILE).catch(() => undefined);
    if (text === undefined || text === this.lastText) return;
    const parsed = this.parse(text);
    if (parsed) this.adopt(parsed.profiles, text);
  }

  /** An id for a profile about to be created, so what is kept under its id (header values) can be stored first. */
  reserveId(): string {
    return this.newId();
  }

  async create(input: ProfileInput, id = this.newId()): Promise<ProfileResult> {
    return this.change((profiles) => {
      const check = checkProfileInput(input, profiles);
      if (!check.ok) return check;
      if (profiles.some((p) => p.id === id)) return { ok: false, problem: 'A profile with that id exists already.' };
      const profile: Profile = { id, ...check.fields };
      return { profiles: [...profiles, profile], profile };
    });
  }

  /**
   * Changes the fields `patch` names (an explicit undefined clears an optional one) over the profile as stored now,
   * under the lock: a field another window changed meanwhile stays as that window left it. Unknown fields stay.
   */
  async edit(id: string, patch: Partial<ProfileInput>): Promise<ProfileResult> {
    return this.change((profiles) => patched(profiles, id, () => patch));
  }

  /**
   * Sets (or, with an empty model, clears) one kind's default model over the models as stored now, under the lock:
   * another window's change to another kind stays.
   */
  async setModel(id: string, kind: ModelKind, model: string | undefined): Promise<ProfileResult> {
    return this.change((profiles) =>
      patched(profiles, id, (old) => {
        const models: Partial<Record<ModelKind, string>> = { ...old.models };
        if (model?.trim()) models[kind] = model.trim();
        else delete models[kind];
        return { models };
      }),
    );
  }

  /**
   * Empties the values of the headers `moved` names where each still holds the value moved (to SecretStorage, see
   * headerSecrets.ts), over the list as stored now: a value another window set meanwhile stays, to be moved next.
   */
  async blankHeaderValues(id: string, moved: Readonly<Record<string, string>>): Promise<ProfileResult> {
    return this.change((profiles) => {
      const old = profiles.find((p) => p.id === id);
      if (!old) return { ok: false, problem: 'That profile no longer exists (another window may have deleted it).' };
      const headers = Object.fromEntries(Object.entries(old.headers).map(([name, value]) => [name, Object.hasOwn(moved, name) && moved[name] === value ? '' : value]));
      if (Object.entries(headers).every(([name, value]) => old.headers[name] === value)) return { ok: false, problem: 'Nothing to move.' };
      const profile: Profile = { ...old, headers };
      return { profiles: profiles.map((p) => (p.id === id ? profile : p)), profile };
    });
  }

  async rename(id: string, name: string): Promise<ProfileResult> {
    return this.edit(id, { name });
  }

  /** A copy under a free name ("Work (2)"), without the key: each profile's key is set for it. */
  async duplicate(id: string, newId = this.newId()): Promise<ProfileResult> {
    return this.change((profiles) => {
      const old = profiles.find((p) => p.id === id);
      if (!old) return { ok: false, problem: 'That profile no longer exists (another window may have deleted it).' };
      if (profiles.some((p) => p.id === newId)) return { ok: false, problem: 'A profile with that id exists already.' };
      const { id: _id, ...rest } = old;
      const profile: Profile = { ...rest, id: newId, name: freeName(old.name, profiles) };
      return { profiles: [...profiles, profile], profile };
    });
  }

  /** Removes a profile (never Default: the settings describe it). The caller removes its key and asks first. */
  async delete(id: string): Promise<ProfileResult> {
    if (isDefaultProfile(id)) return { ok: false, problem: 'The Default profile is the one your settings describe; it cannot be deleted. Rename it, or clear its key.' };
    return this.change((profiles) => {
      const old = profiles.find((p) => p.id === id);
      if (!old) return { ok: false, problem: 'That profile no longer exists (another window may have deleted it).' };
      return { profiles: profiles.filter((p) => p.id !== id), profile: old };
    });
  }

  /** Hides a profile whose video jobs still run; profileRetire.ts removes it, and its key, once they have finished. */
  async retire(id: string): Promise<ProfileResult> {
    if (isDefaultProfile(id)) return { ok: false, problem: 'The Default profile cannot be deleted.' };
    return this.change((profiles) => {
      const old = profiles.find((p) => p.id === id);
      if (!old) return { ok: false, problem: 'That profile no longer exists (another window may have deleted it).' };
      const profile: Profile = { ...old, retired: true };
      return { profiles: profiles.map((p) => (p.id === id ? profile : p)), profile };
    });
  }

  /** Adds profiles read from an export, each under an id of its own (the caller settled any name clash). */
  async addAll(inputs: readonly ProfileInput[]): Promise<{ added: Profile[]; problems: string[] }> {
    const added: Profile[] = [];
    const problems: string[] = [];
    const outcome = await this.update((profiles) => {
      const next = [...profiles];
      for (const input of inputs) {
        const check = checkProfileInput(input, next);
        if (!check.ok) problems.push(`${typeof input.name === 'string' ? input.name : 'A profile'}: ${check.problem}`);
        else {
          const unknown = input.unknown && boundedUnknown(input.unknown).kept;
          const profile: Profile = { ...(unknown && Object.keys(unknown).length > 0 && { unknown }), id: this.newId(), ...check.fields };
          next.push(profile);
          added.push(profile);
        }
      }
      return added.length > 0 ? next : undefined;
    });
    if (outcome === TOO_LARGE) return { added: [], problems: [TOO_LARGE_PROBLEM] };
    return { added, problems };
  }

  private async change(apply: (profiles: readonly Profile[]) => { profiles: Profile[]; profile: Profile } | { ok: false; problem: string }): Promise<ProfileResult> {
    let result: ProfileResult = { ok: false, problem: 'Nothing changed.' };
    const outcome = await this.update((profiles) => {
      const outcome = apply(profiles);
      if ('ok' in outcome) {
        result = outcome;
        return undefined;
      }
      result = { ok: true, profile: outcome.profile };
      return outcome.profiles;
    });
    return outcome === TOO_LARGE ? { ok: false, problem: TOO_LARGE_PROBLEM } : result;
  }

  /**
   * Under the file's lock: reads the list afresh, lets `apply` change it (undefined: no change) and writes it back
   * in one atomic step. A missing file is created with Default; a damaged one is moved aside first. A change that
   * would make a file this store could not read back (larger than it reads) is not written: TOO_LARGE.
   */
  private async update(apply: (profiles: readonly Profile[]) => readonly Profile[] | undefined): Promise<typeof TOO_LARGE | undefined> {
    return withFileLock(this.fs, PROFILES_FILE, this.lock, async () => {
      const text = await this.fs.read(PROFILES_FILE);
      let parsed = text === undefined ? undefined : this.parse(text);
      if (text !== undefined && !parsed) {
        const aside = `${PROFILES_FILE}.damaged-${this.lock.clock.now()}`;
        await this.fs.rename(PROFILES_FILE, aside);
        this.setAsideEmitter.fire(join(this.fs.location, aside));
      }
      parsed ??= { profiles: [defaultProfile()], extra: {} };
      const changed = apply(parsed.profiles);
      const fresh = text === undefined || !this.parse(text);
      if (!changed && !fresh) {
        this.adopt(parsed.profiles, text);
        return undefined;
      }
      const profiles = changed ?? parsed.profiles;
      const next = JSON.stringify({ version: 1, ...parsed.extra, profiles: profiles.map(writeProfile) }, undefined, 2);
      // Every window would take a file it cannot read for damaged and set the list aside: refuse the change instead.
      if (changed && next.length > MAX_BYTES) return TOO_LARGE;
      await writeFileAtomic(join(this.fs.location, PROFILES_FILE), next);
      this.adopt(profiles, next);
      return undefined;
    });
  }

  /** The list in a file's text, or undefined when the text is not a profile list this version can read. */
  private parse(text: string): { profiles: Profile[]; extra: Record<string, unknown> } | undefined {
    if (text.length > MAX_BYTES) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (!isRecord(value) || !Array.isArray(value.profiles)) return undefined;
    const profiles: Profile[] = [];
    for (const raw of value.profiles) {
      const profile = readProfile(raw);
      // One unreadable entry makes the whole file damaged: rewriting without it would lose it.
      if (!profile || profiles.some((p) => p.id === profile.id)) return undefined;
      profiles.push(profile);
    }
    if (!profiles.some((p) => isDefaultProfile(p))) profiles.unshift(defaultProfile());
    // What the file holds besides the profiles (a newer version's fields) is written back as it was.
    const { profiles: _p, ...extra } = value;
    return { profiles, extra };
  }

  private adopt(profiles: readonly Profile[], text: string | undefined): void {
    const same = JSON.stringify(profiles) === JSON.stringify(this.current);
    this.current = profiles;
    this.lastText = text;
    if (!same) this.changed.fire(profiles);
  }

  dispose(): void {
    this.watcher?.dispose();
    this.changed.dispose();
    this.setAsideEmitter.dispose();
  }
}

/** The list with one profile's fields changed (`patch` sees it as stored now); an explicit undefined clears an optional one. */
function patched(profiles: readonly Profile[], id: string, patch: (old: Profile) => Partial<ProfileInput>): { profiles: Profile[]; profile: Profile } | { ok: false; problem: string } {
  const old = profiles.find((p) => p.id === id);
  if (!old) return { ok: false, problem: 'That profile no longer exists (another window may have deleted it).' };
  const { name, baseUrl, headers, models, monthlyBudget, dialect } = old;
  const check = checkProfileInput({ name, baseUrl, headers, models, monthlyBudget, dialect, ...patch(old) }, profiles, id);
  if (!check.ok) return check;
  const profile: Profile = { ...old, ...check.fields, id, ...(check.fields.monthlyBudget === undefined && { monthlyBudget: undefined }) };
  if (profile.monthlyBudget === undefined) delete (profile as { monthlyBudget?: number }).monthlyBudget;
  return { profiles: profiles.map((p) => (p.id === id ? profile : p)), profile };
}
