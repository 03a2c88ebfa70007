// What the extension itself found out about each result link a chat shows from the gateway's link (no kept copy):
// where it finally leads after redirects (the page plays that, with its origin allowed by the CSP), or that it is
// gone (only then "expired", with Regenerate), or that it could not be reached (Retry, never a paid Regenerate).
// ResultLinkChecks is handed the check itself; checkLinkThrough builds the real one (gateway/resultFetch's
// checkResultLink through the API's proxy).
import { checkResultLink, type OpenResultOptions, type ResultLinkCheck } from '../../../gateway/resultFetch';
import { Emitter, type Disposable, type Event } from '../../../util/events';

export type LinkCheckState = ResultLinkCheck | { state: 'checking' };

export type CheckLink = (url: string, signal: AbortSignal) => Promise<ResultLinkCheck>;

/** How long a check may wait for each hop's answer. */
const CHECK_TIMEOUT_MS = 15_000;

/**
 * Checks links through the API's proxy but without the gateway's key: the page fetches the media without it, so a
 * link that works only with the key is not one it can play.
 */
export function checkLinkThrough(connection: { resultFetchOptions(): Promise<Pick<OpenResultOptions, 'proxy' | 'proxyStrictSSL' | 'credentials'>> }): CheckLink {
  return async (url, signal) => {
    const { credentials: _key, ...proxy } = await connection.resultFetchOptions();
    return checkResultLink(url, { ...proxy, signal, timeoutMs: CHECK_TIMEOUT_MS });
  };
}

/** At most this many links are checked at once (a chat reopened with many old videos). */
const PARALLEL_CHECKS = 3;

export class ResultLinkChecks implements Disposable {
  private readonly states = new Map<string, LinkCheckState>();
  private readonly waiting: string[] = [];
  private running = 0;
  private readonly abort = new AbortController();
  private readonly changed = new Emitter<string>();
  /** Fires with a link whose state changed. */
  readonly onDidChange: Event<string> = this.changed.event;

  constructor(private readonly check: CheckLink) {}

  /** What is known of `url`; the first time, it is checked (and is `checking` until then). */
  state(url: string): LinkCheckState {
    let state = this.states.get(url);
    if (!state) {
      state = { state: 'checking' };
      this.states.set(url, state);
      this.waiting.push(url);
      this.next();
    }
    return state;
  }

  /** Retry: forgets what was found and checks again (a check under way is left to finish). */
  recheck(url: string): void {
    if (this.states.get(url)?.state === 'checking') return;
    this.states.delete(url);
    this.state(url);
    this.changed.fire(url);
  }

  /** The exact origins of the links found playable, for the page's CSP. */
  playableOrigins(): string[] {
    const origins = new Set<string>();
    for (const state of this.states.values()) if (state.state === 'available') origins.add(new URL(state.finalUrl).origin);
    return [...origins].sort();
  }

  dispose(): void {
    this.abort.abort();
    this.waiting.length = 0;
    this.changed.dispose();
  }

  private next(): void {
    while (this.running < PARALLEL_CHECKS && this.waiting.length > 0) {
      this.running++;
      void this.run(this.waiting.shift()!);
    }
  }

  private async run(url: string): Promise<void> {
    let result: ResultLinkCheck;
    try {
      result = await this.check(url, this.abort.signal);
    } catch (error) {
      result = { state: 'unavailable', message: error instanceof Error ? error.message : String(error) };
    } finally {
      this.running--;
    }
    if (this.abort.signal.aborted) return;
    this.states.set(url, result);
    this.changed.fire(url);
    this.next();
  }
}
