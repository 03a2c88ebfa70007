// `auto`: which video dialect a gateway speaks, decided from what it says about itself, in this order: its host; the
// model list's fields (`supported_endpoints`/`endpoints`, OpenRouter's `architecture`, LiteLLM's `mode`); LiteLLM's
// /model/info answering; a /videos/models list (OpenRouter's). Nothing known names another: `spec`. Each probe is
// asked only when the ones before it decided nothing, and the decision keeps its evidence (what each probe said),
// so Diagnose Models and Test Connection can say why. Pure: the probes are given.
import type { DialectDecision } from './types';
import type { DialectName, DialectSetting } from './types';

export type { DialectDecision } from './types';
import { isRecord } from '../../../util/records';

export type ProbeName = 'models' | 'modelInfo' | 'videoModels';

/**
 * What one probe found: a list (its entries), `absent` (the gateway answered that it has no such list: 404 and the
 * like), or `failed` (no answer worth deciding on: no key, the network, a 5xx; the decision is then not kept).
 */
export type ProbeResult = { list: readonly unknown[] } | { absent: string } | { failed: string };

export const PROBE_PATHS: Readonly<Record<ProbeName, string>> = { models: '/models', modelInfo: '/model/info', videoModels: '/videos/models' };
const PROBE_ORDER: readonly ProbeName[] = ['models', 'modelInfo', 'videoModels'];
/** How many entries of a list are looked at: enough for any real list's first models, bounded for a hostile one. */
const MAX_ENTRIES = 500;
const MAX_ENDPOINTS = 32;


/** The dialect a host is known to speak, or undefined. */
export function dialectOfHost(host: string): DialectName | undefined {
  if (host === 'openrouter.ai' || host.endsWith('.openrouter.ai')) return 'openrouter';
  if (host === 'api.x.ai') return 'xai';
  // dashscope.aliyuncs.com, dashscope-intl.aliyuncs.com, dashscope-us.aliyuncs.com, …
  if (host.startsWith('dashscope') && host.endsWith('.aliyuncs.com') && !host.slice(0, -'.aliyuncs.com'.length).includes('.')) return 'dashscope';
  return undefined;
}

/** The dialect an endpoint path names: `/v1/videos` (OpenAI's shape), `/videos/generations` (the spec's), DashScope's. */
function dialectOfEndpoint(endpoint: string): DialectName | undefined {
  const path = endpoint.trim().toLowerCase();
  if (path.length > 200) return undefined;
  if (path.includes('video-synthesis')) return 'dashscope';
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  if (trimmed.endsWith('/videos/generations') || trimmed === 'videos/generations') return 'spec';
  if (trimmed.endsWith('/videos') || trimmed === 'videos') return 'openai';
  return undefined;
}

/** What the model list's fields say, with the field that said it; undefined when they name nothing. */
export function dialectOfModelFields(entries: readonly unknown[]): { dialect: DialectName; because: string } | undefined {
  const sample = entries.slice(0, MAX_ENTRIES).filter(isRecord);
  for (const entry of sample) {
    const endpoints = Array.isArray(entry.supported_endpoints) ? entry.supported_endpoints : Array.isArray(entry.endpoints) ? entry.endpoints : undefined;
    for (const endpoint of (endpoints ?? []).slice(0, MAX_ENDPOINTS)) {
      const dialect = typeof endpoint === 'string' ? dialectOfEndpoint(endpoint) : undefined;
      if (dialect) return { dialect, because: `a model's supported endpoints list ${endpoint.trim().slice(0, 80)}` };
    }
  }
  if (sample.some((entry) => isRecord(entry.architecture))) return { dialect: 'openrouter', because: "its entries have `architecture` (OpenRouter's list)" };
  if (sample.some((entry) => typeof entry.mode === 'string' || (isRecord(entry.model_info) && typeof entry.model_info.mode === 'string'))) {
    return { dialect: 'openai', because: "its entries have `mode` (LiteLLM's list, which serves /videos in the OpenAI shape)" };
  }
  return undefined;
}

function count(list: readonly unknown[]): string {
  return `${list.length} model${list.length === 1 ? '' : 's'}`;
}

/**
 * One step of `auto`: the decision when the host or the evidence so far names a dialect, else the probe to ask next
 * (`next`), else `spec`. `found` holds the probes asked so far, in PROBE_ORDER.
 */
export function decideDialect(baseUrl: string, found: Partial<Record<ProbeName, ProbeResult>>): DialectDecision | { next: ProbeName; evidence: string[] } {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return { dialect: 'spec', setting: 'auto', reason: 'the base URL could not be read', evidence: [], settled: true };
  }
  const byHost = dialectOfHost(host);
  if (byHost) return { dialect: byHost, setting: 'auto', reason: `the gateway's host is ${host}`, evidence: [`host ${host}: ${byHost}`], settled: true };
  const evidence = [`host ${host} names no dialect`];
  let settled = true;
  for (const probe of PROBE_ORDER) {
    const result = found[probe];
    if (result === undefined) return { next: probe, evidence };
    const path = PROBE_PATHS[probe];
    if ('failed' in result) {
      settled = false;
      evidence.push(`${path} could not be asked (${result.failed})`);
      continue;
    }
    if ('absent' in result) {
      evidence.push(`${path}: ${result.absent}`);
      continue;
    }
    if (probe === 'models') {
      const named = dialectOfModelFields(result.list);
      evidence.push(`${path}: ${count(result.list)}${named ? `; ${named.because}` : ', none with supported_endpoints, architecture or mode'}`);
      if (named) return { dialect: named.dialect, setting: 'auto', reason: `the model list: ${named.because}`, evidence, settled };
    } else if (result.list.length === 0) {
      // A server that answers every path with an empty object is no LiteLLM and no OpenRouter.
      evidence.push(`${path}: answered with no models`);
    } else if (probe === 'modelInfo') {
      evidence.push(`${path}: answered, ${count(result.list)}`);
      return { dialect: 'openai', setting: 'auto', reason: `LiteLLM's /model/info answered (${count(result.list)}); LiteLLM serves /videos in the OpenAI shape`, evidence, settled };
    } else {
      evidence.push(`${path}: answered, ${count(result.list)}`);
      return { dialect: 'openrouter', setting: 'auto', reason: `the gateway lists video models at /videos/models (${count(result.list)}), as OpenRouter does`, evidence, settled };
    }
  }
  const reason = settled ? 'nothing the gateway says about itself names another dialect' : 'for now: some of what the gateway says about itself could not be asked';
  return { dialect: 'spec', setting: 'auto', reason, evidence, settled };
}

/** Asks the probes `decideDialect` needs, one at a time, until it decides. */
export async function detectDialect(baseUrl: string, probe: (name: ProbeName) => Promise<ProbeResult>): Promise<DialectDecision> {
  const found: Partial<Record<ProbeName, ProbeResult>> = {};
  for (;;) {
    const step = decideDialect(baseUrl, found);
    if (!('next' in step)) return step;
    found[step.next] = await probe(step.next);
  }
}

/** The profile as the detector reads it. */
export interface DialectProfile {
  id: string;
  baseUrl: string;
  dialect?: DialectSetting;
}

/**
 * The decisions per profile, made on first need and kept while the profile's URL and setting stay as they were; a
 * decision that could not ask every probe it needed is not kept. Two needs at once share one detection.
 */
export class DialectDetector {
  private readonly kept = new Map<string, { key: string; decision: Promise<DialectDecision> }>();

  resolve(profile: DialectProfile, probe: (name: ProbeName) => Promise<ProbeResult>): Promise<DialectDecision> {
    const setting = profile.dialect ?? 'auto';
    if (setting !== 'auto') return Promise.resolve({ dialect: setting, setting, reason: `the profile's dialect setting is ${setting}`, evidence: [], settled: true });
    const key = `${setting} ${profile.baseUrl}`;
    const known = this.kept.get(profile.id);
    if (known?.key === key) return known.decision;
    const decision = detectDialect(profile.baseUrl, probe);
    const entry = { key, decision };
    this.kept.set(profile.id, entry);
    void decision.then(
      (made) => !made.settled && this.kept.get(profile.id) === entry && this.kept.delete(profile.id),
      () => this.kept.get(profile.id) === entry && this.kept.delete(profile.id),
    );
    return decision;
  }

  /** What is kept for a profile, without asking anything (undefined before its first need). */
  peek(profileId: string): Promise<DialectDecision> | undefined {
    return this.kept.get(profileId)?.decision;
  }

  forget(profileId?: string): void {
    if (profileId === undefined) this.kept.clear();
    else this.kept.delete(profileId);
  }
}
