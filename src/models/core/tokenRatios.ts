// How many characters make a token, per model, learned from what the gateway reports. The gateway exposes no
// tokenizer, so the chat's context meter estimates tokens from characters; a flat 4 characters a token is wrong by a
// third or more for code, for other languages and for some tokenizers. Each chat answer's `usage.prompt_tokens`
// against the characters its request sent is one sample; samples are averaged per model, weighted by their size,
// and the average is kept in a file in the global storage folder that every window shares (changed under its lock).
// Samples that cannot be right are refused: too small to measure, counts that are not counts, ratios no tokenizer
// gives. Pure logic first; the store (TokenRatios) at the end.
import { join } from 'node:path';
import type { Clock } from '../../util/clock';
import { LockedJsonFile } from '../../util/lockedJsonFile';
import { isRecord } from '../../util/records';
import type { TokenSample } from './tokenSample';
import { CHARS_PER_TOKEN, TOKENS_PER_MESSAGE } from '../../chatProtocol/attachments';

/** The flat ratio the estimates were made with before any sample. */
export const DEFAULT_CHARS_PER_TOKEN = CHARS_PER_TOKEN;
/** No tokenizer gives fewer or more characters per token than this for text (CJK ≈ 1, English prose ≈ 4–5). */
export const MIN_CHARS_PER_TOKEN = 0.8;
export const MAX_CHARS_PER_TOKEN = 8;
/** A request shorter than this says more about the framing than about the text. */
export const MIN_SAMPLE_CHARS = 400;
/** The weight an average keeps at most (characters): a model's ratio keeps following what is sent to it. */
const MAX_WEIGHT_CHARS = 2_000_000;
const MAX_MODELS = 300;
const MAX_CHARS = 50_000_000;

export interface TokenRatio {
  charsPerToken: number;
  /** Characters the average stands for (bounded). */
  weight: number;
  /** Wall ms of the last sample. */
  at: number;
}

export type RatioTable = Map<string, TokenRatio>;

/** The ratio a sample shows, or undefined when it is too small or cannot be right. */
export function sampleRatio(sample: TokenSample): number | undefined {
  const { chars, messages, promptTokens } = sample;
  if (!Number.isSafeInteger(chars) || chars < MIN_SAMPLE_CHARS || chars > MAX_CHARS || !Number.isSafeInteger(messages) || messages < 1) return undefined;
  if (typeof promptTokens !== 'number' || !Number.isSafeInteger(promptTokens) || promptTokens <= 0) return undefined;
  const textTokens = promptTokens - TOKENS_PER_MESSAGE * messages;
  if (textTokens <= 0) return undefined;
  const ratio = chars / textTokens;
  return ratio >= MIN_CHARS_PER_TOKEN && ratio <= MAX_CHARS_PER_TOKEN ? ratio : undefined;
}

/** Takes a sample into a model's average; false when the sample was refused. */
export function learn(table: RatioTable, model: string, sample: TokenSample, now: number): boolean {
  const ratio = sampleRatio(sample);
  if (ratio === undefined || !model || model.length > 256) return false;
  const old = table.get(model);
  const weight = Math.min(MAX_WEIGHT_CHARS, old?.weight ?? 0);
  const charsPerToken = old ? (old.charsPerToken * weight + ratio * sample.chars) / (weight + sample.chars) : ratio;
  table.set(model, { charsPerToken, weight: Math.min(MAX_WEIGHT_CHARS, weight + sample.chars), at: now });
  if (table.size > MAX_MODELS) {
    const oldest = [...table].sort((a, b) => a[1].at - b[1].at)[0]![0];
    table.delete(oldest);
  }
  return true;
}

/** The factor a flat estimate (characters ÷ 4) is multiplied by for this model: 1 until it has been measured. */
export function tokenScale(table: RatioTable, model: string): number {
  const ratio = table.get(model)?.charsPerToken;
  return ratio === undefined ? 1 : DEFAULT_CHARS_PER_TOKEN / ratio;
}

/** The table a file holds; entries that are not a sane ratio are left out. */
export function readTable(raw: unknown): RatioTable {
  const table: RatioTable = new Map();
  if (!isRecord(raw) || !isRecord(raw.models)) return table;
  for (const [model, value] of Object.entries(raw.models)) {
    if (!isRecord(value) || model.length > 256) continue;
    const { charsPerToken, weight, at } = value;
    if (typeof charsPerToken !== 'number' || !(charsPerToken >= MIN_CHARS_PER_TOKEN && charsPerToken <= MAX_CHARS_PER_TOKEN)) continue;
    if (typeof weight !== 'number' || !(weight > 0 && weight <= MAX_WEIGHT_CHARS) || typeof at !== 'number' || !Number.isFinite(at)) continue;
    table.set(model, { charsPerToken, weight, at });
    if (table.size >= MAX_MODELS) break;
  }
  return table;
}

/** The learned ratios, shared by the windows through `tokenRatios.json`; read on first use, never at activation. */
export class TokenRatios {
  private table: RatioTable = new Map();
  private loading: Promise<void> | undefined;
  private writing: Promise<void> = Promise.resolve();
  /** This window has taken the file in under its lock since: the first read, if later, is older. */
  private merged = false;

  constructor(
    private readonly file: LockedJsonFile,
    private readonly clock: Clock,
  ) {}

  /** The ratios in `tokenRatios.json` of a folder (the global storage folder). */
  static in(folder: string, clock: Clock): TokenRatios {
    return new TokenRatios(LockedJsonFile.at(join(folder, 'tokenRatios.json'), clock, 256 * 1024), clock);
  }

  /** The factor for a model's flat estimates (1 until known); the first call starts reading the file. */
  scale(model: string): number {
    this.loading ??= this.file.read().then(
      (raw) => void (this.merged || (this.table = readTable(raw))),
      () => undefined,
    );
    return tokenScale(this.table, model);
  }

  /** Resolves when the file has been read (tests; the meter uses what is known at the time). */
  loaded(): Promise<void> {
    this.scale('');
    return this.loading!;
  }

  /** Resolves when every answered request taken in so far is in the table (tests: a figure that will not move). */
  settled(): Promise<void> {
    return this.writing;
  }

  /** Takes one answered request in: into the shared file under its lock, and what the other windows learned back. */
  observe(model: string, sample: TokenSample): Promise<void> {
    if (sampleRatio(sample) === undefined) return this.writing;
    this.writing = this.writing
      .then(() =>
        this.file.update((raw) => {
          const table = readTable(raw);
          learn(table, model, sample, this.clock.now());
          this.table = table;
          this.merged = true;
          return { next: { ...(isRecord(raw) && raw), version: 1, models: Object.fromEntries(table) }, result: undefined };
        }),
      )
      .catch(() => undefined);
    return this.writing;
  }
}
