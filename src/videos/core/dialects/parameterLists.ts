// The lists a profile's gateway answered (its /models, LiteLLM's /model/info, OpenRouter's /videos/models), kept per
// profile so the `auto` dialect's detection and the allowed parameters share one fetch of each. A list that could not
// be asked (no key, the network, a 5xx) is not kept: the next need asks again. Pure: the probe is given.
import type { DialectName } from '../../../settings/profile';
import { allowedFor, readAllowedParameters, type AllowedByModel, type AllowedParameters } from './allowedParameters';
import type { ProbeName, ProbeResult } from './detect';

type Probe = (name: ProbeName) => Promise<ProbeResult>;

/** The lists that say what a dialect's gateway allows: OpenRouter's video list, LiteLLM's model info. */
const LISTS_OF: Partial<Record<DialectName, readonly ProbeName[]>> = { openrouter: ['videoModels'], openai: ['modelInfo'] };

export class GatewayLists {
  private readonly kept = new Map<string, { baseUrl: string; lists: Map<ProbeName, Promise<ProbeResult>> }>();

  /** `probe`, each list asked at most once per profile while its base URL stays the same. */
  memo(profile: { id: string; baseUrl: string }, probe: Probe): Probe {
    return (name) => {
      let entry = this.kept.get(profile.id);
      if (entry?.baseUrl !== profile.baseUrl) this.kept.set(profile.id, (entry = { baseUrl: profile.baseUrl, lists: new Map() }));
      const known = entry.lists.get(name);
      if (known) return known;
      const asked = probe(name).catch((error: unknown): ProbeResult => ({ failed: error instanceof Error ? error.message : String(error) }));
      const lists = entry.lists;
      lists.set(name, asked);
      void asked.then((result) => 'failed' in result && lists.get(name) === asked && lists.delete(name));
      return asked;
    };
  }

  /**
   * What the gateway allows for `model`: from the lists the profile's dialect lists them in, plus any of them the
   * detection asked already. Undefined when nothing is listed (nothing is then checked).
   */
  async allowed(profile: { id: string; baseUrl: string }, dialect: DialectName, model: string, probe: Probe): Promise<AllowedParameters | undefined> {
    const asked = this.memo(profile, probe);
    const known = this.kept.get(profile.id)?.lists;
    const names = (['videoModels', 'modelInfo'] as const).filter((name) => LISTS_OF[dialect]?.includes(name) || known?.has(name));
    const lists: AllowedByModel[] = [];
    for (const name of names) {
      const result = await asked(name);
      if ('list' in result) lists.push(readAllowedParameters(result.list));
    }
    return allowedFor(lists, model);
  }

  forget(profileId?: string): void {
    if (profileId === undefined) this.kept.clear();
    else this.kept.delete(profileId);
  }
}
