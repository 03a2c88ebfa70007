// The gateway's own figures for a profile's key, beside the local ledger's: asked rarely (at most once in
// MIN_INTERVAL_MS per profile, unless the user asks) and never at activation; the status bar and the dashboard show
// the last answer, labelled as the gateway's. Pure: the fetch and the clock come in.
import { keyAccountUrls, liteLlmKeyAccount, openRouterKeyAccount, type KeyAccount } from '../../gateway/keyAccount';
import { formatUsd } from './summary';

/** How often the gateway is asked by itself at most; a user's refresh asks at once. */
export const MIN_INTERVAL_MS = 15 * 60_000;

export interface GatewayAccountDeps {
  now(): number;
  /** The profile's base URL and dialect, or undefined when it has no gateway. */
  gatewayOf(profile: string): { baseUrl: string; dialect?: string } | undefined;
  /** A JSON answer of `url` with the profile's key (a 200 only; rejects otherwise). */
  fetchJson(profile: string, url: string): Promise<unknown>;
}

interface Entry {
  askedAt: number;
  account?: KeyAccount;
  pending?: Promise<KeyAccount | undefined>;
}

export class GatewayAccounts {
  readonly #entries = new Map<string, Entry>();

  constructor(private readonly deps: GatewayAccountDeps) {}

  /** The last figures the profile's gateway gave (undefined: never asked, or it keeps none it will tell). */
  last(profile: string): KeyAccount | undefined {
    return this.#entries.get(profile)?.account;
  }

  /** Asks the gateway when the last answer is older than MIN_INTERVAL_MS, or at once with `force`; never rejects. */
  refresh(profile: string, force = false): Promise<KeyAccount | undefined> {
    const entry = this.#entries.get(profile);
    if (entry?.pending) return entry.pending;
    if (entry && !force && this.deps.now() - entry.askedAt < MIN_INTERVAL_MS) return Promise.resolve(entry.account);
    const next: Entry = { askedAt: this.deps.now(), ...(entry?.account && { account: entry.account }) };
    next.pending = this.#ask(profile)
      .then((account) => {
        if (account) next.account = account;
        else delete next.account;
        return account;
      })
      .finally(() => delete next.pending);
    this.#entries.set(profile, next);
    return next.pending;
  }

  async #ask(profile: string): Promise<KeyAccount | undefined> {
    const gateway = this.deps.gatewayOf(profile);
    if (!gateway) return undefined;
    const urls = keyAccountUrls(gateway.baseUrl, gateway.dialect);
    const key = await this.deps.fetchJson(profile, urls.key).catch(() => undefined);
    if (urls.gateway === 'LiteLLM') return liteLlmKeyAccount(key);
    const credits = urls.credits ? await this.deps.fetchJson(profile, urls.credits).catch(() => undefined) : undefined;
    return openRouterKeyAccount(key, credits);
  }
}

/** One line for a person, labelled as the gateway's: "LiteLLM's own figures for this key: $10.51 spent of $20.00". */
export function accountLine(account: KeyAccount): string {
  const parts: string[] = [];
  if (account.spent !== undefined) parts.push(account.limit !== undefined ? `${formatUsd(account.spent)} spent of ${formatUsd(account.limit)}` : `${formatUsd(account.spent)} spent (no limit)`);
  else if (account.limit !== undefined) parts.push(`limit ${formatUsd(account.limit)}`);
  if (account.remaining !== undefined) parts.push(`${formatUsd(account.remaining)} left`);
  if (account.credits !== undefined) parts.push(`${formatUsd(account.credits)} of credits on the account`);
  return `${account.gateway}'s own figures for this key: ${parts.join(', ') || 'none given'}`;
}
