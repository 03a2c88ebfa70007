// How long video jobs took on each gateway, per model: the last 50 completions, each with the resolution and
// duration that were asked for. The poll scheduler plans a job's polls around it. Pure: it persists as one JSON
// value through an injected JsonStore (the extension keeps it in the global storage folder).
import { isRecord, otherMembers } from '../../util/records';

/** Somewhere to keep one JSON value. `load` gives undefined when nothing was saved yet. */
export interface JsonStore {
  load(): Promise<unknown>;
  save(value: unknown): Promise<void>;
}

/** A JsonStore in memory, for tests and benches; keeps a JSON copy, as a file would. */
export class MemoryJsonStore implements JsonStore {
  saves = 0;
  private text: string | undefined;

  constructor(initial?: unknown) {
    if (initial !== undefined) this.text = JSON.stringify(initial);
  }

  get value(): unknown {
    return this.text === undefined ? undefined : JSON.parse(this.text);
  }

  async load(): Promise<unknown> {
    return this.value;
  }

  async save(value: unknown): Promise<void> {
    this.text = JSON.stringify(value);
    this.saves++;
  }
}

/** What a duration depends on: where the job ran, the model, and what was asked for. */
export interface JobShape {
  origin: string;
  model: string;
  resolution?: string;
  duration?: number;
}

export interface DurationSample {
  resolution?: string;
  duration?: number;
  /** Submit to completed, in ms. */
  ms: number;
  /** When the completion was seen (ms since the epoch). */
  at: number;
  /** The gateway's job id: the same completion recorded by two windows counts once. */
  id?: string;
  /** When its `progress` began to move, in ms after submission (its time queued), where it reported progress. */
  startMs?: number;
  /** Members a newer version stored with the sample, written back unchanged. */
  unknown?: Record<string, unknown>;
}

export interface DurationHistoryOptions {
  store: JsonStore;
  /** Samples kept per origin and model. */
  limit?: number;
  onError?: (error: unknown) => void;
}

export const DURATION_HISTORY_LIMIT = 50;
const FORMAT_VERSION = 1;
const MAX_ORIGINS = 20;
const MAX_MODELS_PER_ORIGIN = 20;
const MAX_SAMPLE_MS = 7 * 24 * 60 * 60_000;
const MAX_TEXT = 200;

/** The members of a stored sample this version reads; the rest round-trip in `unknown`. */
const SAMPLE_MEMBERS = ['ms', 'at', 'resolution', 'duration', 'id', 'startMs'] as const;
/** The top-level members this version reads; the rest round-trip beside them. */
const TOP_MEMBERS = ['version', 'origins'];

type Samples = Map<string, Map<string, DurationSample[]>>;

/** What a stored history holds for this version: its samples, the members it does not know, or the newer version it is from. */
interface Parsed {
  samples: Samples;
  others: Record<string, unknown>;
  /** The format version of a newer version's file: not read, and never written over. */
  newer?: number;
}

export class DurationHistory {
  private readonly store: JsonStore;
  private readonly limit: number;
  private readonly onError: (error: unknown) => void;
  private samples: Samples = new Map();
  /** The stored file's top-level members this version does not know, as last read. */
  private others: Record<string, unknown> = {};
  /** A newer version's file was found: this window keeps its samples in memory and leaves the file as it is. */
  private newer: number | undefined;
  private loading: Promise<void> | undefined;
  private saving: Promise<void> = Promise.resolve();
  private saveQueued = false;

  constructor(options: DurationHistoryOptions) {
    this.store = options.store;
    this.limit = Math.max(1, options.limit ?? DURATION_HISTORY_LIMIT);
    this.onError = options.onError ?? (() => undefined);
  }

  /** Reads what was saved (once); samples recorded meanwhile are kept. A damaged file counts as empty. */
  load(): Promise<void> {
    this.loading ??= this.store.load().then(
      (stored) => {
        this.samples = this.merged(this.parsed(stored), this.samples);
      },
      (error: unknown) => this.onError(error),
    );
    return this.loading;
  }

  /** Durations in ms of this origin's and model's jobs with the same resolution and duration, oldest first. */
  durationsMs(shape: JobShape): number[] {
    const list = this.samples.get(shape.origin)?.get(shape.model) ?? [];
    return list.filter((s) => s.resolution === shape.resolution && s.duration === shape.duration).map((s) => s.ms);
  }

  /** When progress began (ms after submission) in those jobs that reported it, oldest first. */
  startsMs(shape: JobShape): number[] {
    const list = this.samples.get(shape.origin)?.get(shape.model) ?? [];
    return list.filter((s) => s.resolution === shape.resolution && s.duration === shape.duration && s.startMs !== undefined).map((s) => s.startMs!);
  }

  /** Adds a completion and saves (merged with what another window may have saved meanwhile). */
  record(shape: JobShape, sample: Pick<DurationSample, 'ms' | 'at' | 'id' | 'startMs'>): void {
    const clean = cleanSample({ ...sample, resolution: shape.resolution, duration: shape.duration });
    if (!clean || !isText(shape.origin) || !isText(shape.model)) return;
    const addition: Samples = new Map([[shape.origin, new Map([[shape.model, [clean]]])]]);
    this.samples = this.merged(this.samples, addition);
    void this.save();
  }

  /** Resolves once every recorded sample is saved. */
  flush(): Promise<void> {
    return this.saving;
  }

  private save(): Promise<void> {
    if (this.saveQueued) return this.saving;
    this.saveQueued = true;
    this.saving = this.saving.then(async () => {
      this.saveQueued = false;
      await this.load();
      // Another window may have added samples since we read the file: keep both.
      const stored = await this.store.load().catch((error: unknown) => this.onError(error));
      this.samples = this.merged(this.parsed(stored), this.samples);
      if (this.newer !== undefined) return;
      await this.store.save(serialize(this.samples, this.others)).catch((error: unknown) => this.onError(error));
    });
    return this.saving;
  }

  /** The samples of a stored value; notes its unknown members, or that a newer version wrote it (reported once). */
  private parsed(stored: unknown): Samples {
    const parsed = parseHistory(stored, this.limit);
    if (parsed.newer !== undefined && this.newer === undefined) this.onError(new Error(`the video duration history is from a newer version (${parsed.newer}): left as it is`));
    this.newer = parsed.newer;
    if (stored !== undefined) this.others = parsed.others;
    return parsed.samples;
  }

  private merged(a: Samples, b: Samples): Samples {
    const result: Samples = new Map();
    for (const origin of new Set([...a.keys(), ...b.keys()])) {
      const models = new Map<string, DurationSample[]>();
      const modelA = a.get(origin);
      const modelB = b.get(origin);
      for (const model of new Set([...(modelA?.keys() ?? []), ...(modelB?.keys() ?? [])])) {
        models.set(model, unionOf(modelA?.get(model) ?? [], modelB?.get(model) ?? [], this.limit));
      }
      result.set(origin, newestFirst(models, MAX_MODELS_PER_ORIGIN));
    }
    return newestFirst(result, MAX_ORIGINS);
  }
}

function sampleKey(sample: DurationSample): string {
  return sample.id ?? `${sample.at}:${sample.ms}:${sample.resolution}:${sample.duration}`;
}

/** Both lists without repeats (the later one's sample, with members a newer version added to either), oldest first, the newest `limit` kept. */
function unionOf(a: DurationSample[], b: DurationSample[], limit: number): DurationSample[] {
  const byKey = new Map<string, DurationSample>();
  for (const sample of [...a, ...b]) {
    const key = sampleKey(sample);
    const earlier = byKey.get(key)?.unknown;
    byKey.set(key, earlier && !sample.unknown ? { ...sample, unknown: earlier } : sample);
  }
  return [...byKey.values()].sort((x, y) => x.at - y.at).slice(-limit);
}

function latestAt(value: DurationSample[] | Map<string, DurationSample[]>): number {
  const lists = Array.isArray(value) ? [value] : [...value.values()];
  return Math.max(0, ...lists.map((list) => list.at(-1)?.at ?? 0));
}

/** Keeps the `max` entries whose latest sample is newest. */
function newestFirst<V extends DurationSample[] | Map<string, DurationSample[]>>(map: Map<string, V>, max: number): Map<string, V> {
  if (map.size <= max) return map;
  return new Map([...map.entries()].sort((x, y) => latestAt(y[1]) - latestAt(x[1])).slice(0, max));
}

function serialize(samples: Samples, others: Record<string, unknown>): unknown {
  // fromEntries defines own properties, so an origin named `__proto__` stays a plain key (spreads define them too).
  const stored = ({ unknown, ...sample }: DurationSample) => ({ ...sample, ...unknown });
  const origins = Object.fromEntries([...samples].map(([origin, models]) => [origin, Object.fromEntries([...models].map(([model, list]) => [model, list.map(stored)]))]));
  return { ...others, version: FORMAT_VERSION, origins };
}

/** Reads a stored history field by field: whatever is malformed is dropped, the rest kept (and members it does not know). */
function parseHistory(stored: unknown, limit: number): Parsed {
  const result: Samples = new Map();
  if (!isRecord(stored)) return { samples: result, others: {} };
  const others = otherMembers(stored, TOP_MEMBERS);
  const { version } = stored;
  if (typeof version === 'number' && Number.isInteger(version) && version > FORMAT_VERSION) return { samples: result, others, newer: version };
  if (version !== FORMAT_VERSION || !isRecord(stored.origins)) return { samples: result, others };
  for (const [origin, models] of Object.entries(stored.origins)) {
    if (!isText(origin) || !isRecord(models)) continue;
    const parsed = new Map<string, DurationSample[]>();
    for (const [model, list] of Object.entries(models)) {
      if (!isText(model) || !Array.isArray(list)) continue;
      const samples = list.map(cleanSample).filter((s): s is DurationSample => s !== undefined);
      if (samples.length > 0) parsed.set(model, unionOf(samples, [], limit));
    }
    if (parsed.size > 0) result.set(origin, newestFirst(parsed, MAX_MODELS_PER_ORIGIN));
  }
  return { samples: newestFirst(result, MAX_ORIGINS), others };
}

function cleanSample(value: unknown): DurationSample | undefined {
  if (!isRecord(value)) return undefined;
  const { ms, at, id, resolution, duration } = value;
  if (typeof ms !== 'number' || !(ms > 0 && ms <= MAX_SAMPLE_MS)) return undefined;
  if (typeof at !== 'number' || !Number.isFinite(at) || at < 0) return undefined;
  const sample: DurationSample = { ms: Math.round(ms), at: Math.round(at) };
  if (resolution !== undefined) {
    if (!isText(resolution)) return undefined;
    sample.resolution = resolution;
  }
  if (duration !== undefined) {
    if (typeof duration !== 'number' || !Number.isFinite(duration)) return undefined;
    sample.duration = duration;
  }
  if (isText(id)) sample.id = id;
  const { startMs } = value;
  if (typeof startMs === 'number' && startMs >= 0 && startMs <= sample.ms) sample.startMs = Math.round(startMs);
  const unknown = otherMembers(value, SAMPLE_MEMBERS);
  if (Object.keys(unknown).length > 0) sample.unknown = unknown;
  return sample;
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TEXT;
}

