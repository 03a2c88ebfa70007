// The Media history: every generated image and clip, kept in the extension's global storage folder so that a reload,
// another window or another client of the same server sees the same list. Pure Node (no `vscode`).
//
//   <folder>/entries/<id>.json    one file per entry, written atomically (pid + random temp name, then rename) and
//                                 never rewritten, so no window's write can drop another window's entry;
//   <folder>/files/<id>-<n>.<ext> the media, written (atomically) before the entry that names them;
//   <folder>/set-aside/<time>-<name> a damaged entry and its files, moved out of the way (never deleted).
//
// An entry file this version cannot read is never a reason to delete anything: a damaged one (not JSON, not an
// object, not its own id) is set aside with its files, once, and `onDidSetAside` says where; one that is well-formed
// but not as this version writes it (a newer version's) stays where it is, with its files, and is reported once.
// Other windows' additions and removals arrive through a folder watch and `reload()`.
import { randomBytes } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MEDIA_EXTENSIONS, type MediaType } from '../../gateway/mediaTypes';
import { writeFileAtomic } from '../../util/atomicFile';
import type { Clock, TimerHandle } from '../../util/clock';
import { Emitter, type Disposable, type Event } from '../../util/events';
import { Rerun } from '../../util/rerun';
import { isRecord } from '../../util/records';
import { isEntryId, isMediaEntry, LIMITS, type MediaEntry, type MediaFileRef } from './mediaEntry';

export interface NewMediaFile {
  data: Uint8Array;
  contentType: MediaType;
  sourceUrl?: string;
  revisedPrompt?: string;
  caption?: string;
}

export type NewMediaEntry = Omit<MediaEntry, 'id' | 'createdAt' | 'files'> & { files: NewMediaFile[] };

/** Damaged entries this window moved out of the history, with their files. */
export interface MediaSetAside {
  folder: string;
  files: string[];
}

export interface MediaHistoryOptions {
  /** The history's own folder (inside the global storage folder). */
  folder: string;
  clock: Clock;
  /** How many entries to keep; the oldest beyond it are removed with their files. */
  limit(): number;
  onError?(error: unknown, what: string): void;
}

/** Temp files and files without an entry younger than this may be a write in progress in another window. */
const LEFTOVER_AGE_MS = 60 * 60_000;
const WATCH_DEBOUNCE_MS = 100;

export class MediaHistory implements Disposable {
  readonly entriesFolder: string;
  readonly filesFolder: string;
  readonly setAsideFolder: string;
  private readonly changed = new Emitter<void>();
  private readonly setAsideEmitter = new Emitter<MediaSetAside>();
  /** Fires once per scan that set damaged entries aside (the start-up scan's after the constructor returns). */
  readonly onDidSetAside: Event<MediaSetAside> = this.setAsideEmitter.event;
  /** Ids of entry files present that this version cannot read (a newer version's): kept, their files too. */
  private readonly unreadable = new Set<string>();
  /** Fires after the list changed, in this window or (once seen) in another. */
  readonly onDidChange: Event<void> = this.changed.event;
  /** Resolves once the stored entries have been read. */
  readonly ready: Promise<void>;
  private readonly byId = new Map<string, MediaEntry>();
  private watcher: FSWatcher | undefined;
  private debounce: TimerHandle | undefined;
  private readonly reloader = new Rerun(() => this.scan(), () => this.disposed);
  private disposed = false;

  constructor(private readonly options: MediaHistoryOptions) {
    this.entriesFolder = join(options.folder, 'entries');
    this.filesFolder = join(options.folder, 'files');
    this.setAsideFolder = join(options.folder, 'set-aside');
    this.ready = this.start();
  }

  /** Newest first. */
  entries(): MediaEntry[] {
    return [...this.byId.values()].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  }

  get(id: string): MediaEntry | undefined {
    return this.byId.get(id);
  }

  /** The absolute path of one of an entry's files. */
  filePath(file: MediaFileRef): string {
    return join(this.filesFolder, file.name);
  }

  /** Keeps a new entry: its files first, then the entry naming them. Resolves with the entry as stored. */
  async add(input: NewMediaEntry): Promise<MediaEntry> {
    await this.ready;
    if (input.files.length === 0 || input.files.length > LIMITS.files) throw new Error(`An entry holds 1 to ${LIMITS.files} files, not ${input.files.length}.`);
    const id = `m${this.options.clock.now().toString(36)}${randomBytes(6).toString('hex')}`;
    const files: MediaFileRef[] = [];
    let added: MediaEntry;
    try {
      for (const [index, file] of input.files.entries()) {
        const name = `${id}-${index + 1}.${MEDIA_EXTENSIONS[file.contentType]}`;
        await writeFileAtomic(join(this.filesFolder, name), file.data);
        const ref: MediaFileRef = { name, contentType: file.contentType, bytes: file.data.length };
        if (file.sourceUrl !== undefined) ref.sourceUrl = file.sourceUrl.slice(0, LIMITS.url);
        if (file.revisedPrompt !== undefined) ref.revisedPrompt = file.revisedPrompt.slice(0, LIMITS.prompt);
        if (file.caption !== undefined) ref.caption = file.caption.slice(0, LIMITS.prompt);
        files.push(ref);
      }
      const entry: MediaEntry = {
        id,
        kind: input.kind,
        createdAt: this.options.clock.now(),
        origin: input.origin.slice(0, LIMITS.url),
        model: input.model.slice(0, LIMITS.text),
        prompt: input.prompt.slice(0, LIMITS.prompt),
        ...(input.size !== undefined && { size: input.size.slice(0, LIMITS.text) }),
        ...(input.voice !== undefined && { voice: input.voice.slice(0, LIMITS.text) }),
        files,
        notes: input.notes.slice(0, LIMITS.notes).map((n) => n.slice(0, 1000)),
      };
      await writeFileAtomic(this.entryPath(id), JSON.stringify(entry));
      this.byId.set(id, entry);
      added = entry;
    } catch (error) {
      for (const file of files) await rm(this.filePath(file), { force: true }).catch(() => undefined);
      throw error;
    }
    this.changed.fire();
    await this.prune();
    return this.byId.get(id) ?? added;
  }

  /** Forgets an entry everywhere: the entry first (no window lists it after), then its files. */
  async remove(id: string): Promise<boolean> {
    await this.ready;
    const entry = this.byId.get(id);
    if (!entry || !isEntryId(id)) return false;
    await rm(this.entryPath(id), { force: true });
    this.byId.delete(id);
    for (const file of entry.files) await rm(this.filePath(file), { force: true }).catch((error: unknown) => this.report(error, `removing ${file.name}`));
    this.changed.fire();
    return true;
  }

  /** Removes every entry; resolves with how many. */
  async clear(): Promise<number> {
    let removed = 0;
    for (const entry of this.entries()) if (await this.remove(entry.id)) removed++;
    return removed;
  }

  /** Reads what other windows added or removed. Calls made while one runs share a second pass. */
  reload(): Promise<void> {
    return this.reloader.run();
  }

  /** Follows other windows' changes as they happen, where the platform can watch a folder (else `reload()` only). */
  watch(): void {
    if (this.watcher || this.disposed) return;
    try {
      this.watcher = watch(this.entriesFolder, { persistent: false }, () => this.scheduleReload());
      this.watcher.on('error', () => this.stopWatching());
    } catch (error) {
      this.report(error, 'watching the media history folder');
    }
  }

  dispose(): void {
    this.disposed = true;
    this.stopWatching();
    this.changed.dispose();
    this.setAsideEmitter.dispose();
  }

  private async start(): Promise<void> {
    try {
      await mkdir(this.entriesFolder, { recursive: true });
      await mkdir(this.filesFolder, { recursive: true });
      await this.scan();
      await this.sweep();
    } catch (error) {
      this.report(error, 'reading the media history');
    }
  }

  private entryPath(id: string): string {
    return join(this.entriesFolder, `${id}.json`);
  }

  private async scan(): Promise<void> {
    const ids = new Set((await readdir(this.entriesFolder).catch(() => [] as string[])).map((name) => /^(m[a-z0-9]+)\.json$/.exec(name)?.[1]).filter(isEntryId));
    let changed = false;
    for (const id of [...this.byId.keys()]) {
      if (ids.has(id)) continue;
      this.byId.delete(id);
      changed = true;
    }
    for (const id of this.unreadable) if (!ids.has(id)) this.unreadable.delete(id);
    const moved: string[] = [];
    for (const id of ids) {
      if (this.byId.has(id) || this.unreadable.has(id)) continue;
      const entry = await this.readEntry(id);
      if (entry === 'damaged') moved.push(...(await this.setAside(id)));
      if (typeof entry !== 'object') continue;
      this.byId.set(id, entry);
      changed = true;
    }
    if (this.disposed) return;
    if (changed) this.changed.fire();
    if (moved.length > 0) this.setAsideEmitter.fire({ folder: this.setAsideFolder, files: moved });
  }

  /** The entry; 'damaged' when the file is not an entry at all; 'foreign' for a well-formed one this version cannot read. */
  private async readEntry(id: string): Promise<MediaEntry | 'damaged' | 'foreign' | undefined> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(this.entryPath(id), 'utf8'));
    } catch (error) {
      if (error instanceof SyntaxError) return 'damaged';
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.report(error, `reading media entry ${id}`);
      return undefined;
    }
    if (!isRecord(parsed) || parsed.id !== id) return 'damaged';
    if (isMediaEntry(parsed)) return parsed;
    this.unreadable.add(id);
    this.report(new Error(`${id}.json is from a newer version: kept as is`), 'reading the media history');
    return 'foreign';
  }

  /** Moves a damaged entry and its files to the set-aside folder; their new paths (none when another window did it). */
  private async setAside(id: string): Promise<string[]> {
    const prefix = `${this.options.clock.now()}-`;
    const moved: string[] = [];
    try {
      await mkdir(this.setAsideFolder, { recursive: true });
      const target = join(this.setAsideFolder, `${prefix}${id}.json`);
      await rename(this.entryPath(id), target);
      moved.push(target);
      for (const name of await readdir(this.filesFolder)) {
        if (!name.startsWith(`${id}-`) || name.endsWith('.tmp')) continue;
        await rename(join(this.filesFolder, name), join(this.setAsideFolder, `${prefix}${name}`));
        moved.push(join(this.setAsideFolder, `${prefix}${name}`));
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.report(error, `setting ${id} aside`);
    }
    return moved;
  }

  private async prune(): Promise<void> {
    const limit = Math.max(1, this.options.limit());
    for (const entry of this.entries().slice(limit)) await this.remove(entry.id);
  }

  /** Deletes what crashed windows left: old temp files, and old files that no entry file names. */
  private async sweep(): Promise<void> {
    const now = this.options.clock.now();
    const named = new Set(this.entries().flatMap((e) => e.files.map((f) => f.name)));
    // Files of an entry this version cannot read are that entry's, not a crashed writer's.
    const kept = (name: string) => named.has(name) || this.unreadable.has(name.split('-')[0]);
    for (const [folder, isLeftover] of [
      [this.entriesFolder, (name: string) => name.endsWith('.tmp')],
      [this.filesFolder, (name: string) => name.endsWith('.tmp') || !kept(name)],
    ] as const) {
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        if (!isLeftover(name)) continue;
        const info = await stat(join(folder, name)).catch(() => undefined);
        if (info && now - info.mtimeMs > LEFTOVER_AGE_MS) await rm(join(folder, name), { force: true }).catch(() => undefined);
      }
    }
  }

  private scheduleReload(): void {
    if (this.disposed) return;
    if (this.debounce !== undefined) this.options.clock.clearTimeout(this.debounce);
    this.debounce = this.options.clock.setTimeout(() => {
      this.debounce = undefined;
      void this.reload();
    }, WATCH_DEBOUNCE_MS);
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.debounce !== undefined) this.options.clock.clearTimeout(this.debounce);
    this.debounce = undefined;
  }

  private report(error: unknown, what: string): void {
    this.options.onError?.(error, what);
  }
}
