// One profile's link to its gateway: it builds a client for the profile's origin with the key kept for that
// profile on that origin (its key slot), rebuilds it when settings or keys change, and watches every call's outcome
// to keep a connection state (for the status bar and welcome views). GatewayConnections (connections.ts) holds one
// per profile and is what features ask for access. Rate-limit timing lives in the pacer (pacer.ts): the connection
// hands each client its origin-and-key pacing and reads the rate-limited state from it.
import { Emitter, type Event } from '../util/events';
import type { Clock } from '../util/clock';
import type { PaceNews, PaceWait, RequestPacing } from './pacer';
import { paceKeyFor, type PaceKey } from './paceKey';
import { Pacing } from './pacing';
import type { GatewaySettings } from '../settings/settings';
import { DEFAULT_PROFILE_ID, keySlot } from '../settings/profile';
import { failureKind, GatewayError, readError } from './errors';
import type { FinishedCall } from './callReport';
import type { ProxySetting } from './proxy';
import type { OpenResultOptions } from './resultFetch';
import type { GatewayApi, ImageRequest, RequestOptions, VideoRequest } from './types';
import { forwardingApi, invoke } from './apiForwarding';
import { sendableHeaders } from './headerValues';

/**
 * A request someone waits on (not background work) that the rate limit holds for over a minute, whose caller shows
 * no wait of its own: `sendAnyway()` lets it go now, the gateway's own answer deciding.
 */
export interface LongPaceWait {
  origin: string;
  method: string;
  waitMs: number;
  sendAnyway(): void;
}

export interface ClientConfig {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  idleTimeoutMs: number;
  headers: Record<string, string>;
  proxy?: string;
  /** VS Code's `http.proxyStrictSSL` (default true). */
  proxyStrictSSL?: boolean;
  paths?: { images: string; speech: string };
  /** The rate-limit pacing of this origin and key. */
  pacing?: RequestPacing;
}

export type ClientFactory = (config: ClientConfig) => GatewayApi & { close?(): void };

export type ConnectionState =
  | { kind: 'no-url' }
  | { kind: 'no-key'; origin: string }
  | { kind: 'unknown'; origin: string }
  | { kind: 'connected'; origin: string }
  | { kind: 'unauthorized'; origin: string; message: string }
  | { kind: 'forbidden'; origin: string; message: string }
  | { kind: 'rate-limited'; origin: string; until: number; message: string }
  | { kind: 'offline'; origin: string; message: string };

/**
 * Where the connection reads keys from: one key per slot (a profile on an origin, see keySlot), the values of the
 * profile's extra headers kept beside it, and news when either changes.
 */
export interface KeySource {
  get(slot: string): PromiseLike<string | undefined>;
  has(slot: string): PromiseLike<boolean>;
  headerValues?(slot: string): PromiseLike<Readonly<Record<string, string>>>;
  readonly onDidChange: Event<string>;
}

/** A profile's headers that have no value yet, so they are not sent (see headerValues.ts). */
export interface UnfilledHeaders {
  profile: string;
  origin: string;
  names: string[];
}

/** What a feature needs to reach the gateway, or what is missing (ui/errorAdvice's accessAdvice words it). */
/** `profileName`: what the user calls the profile (a budget refusal says whose budget it was). */
export type GatewayAccess = { ok: true; api: GatewayApi; origin: string; profile?: string; profileName?: string } | MissingAccess;
/** `profile`: the profile asked for was deleted (or is being deleted while its jobs finish): nothing new goes with it. */
export type MissingAccess = { ok: false; missing: 'url' | 'key' | 'profile'; origin?: string; profile?: string };

/** Maps a call's failure to the connection state it reveals, or undefined when it says nothing about the link. */
export function stateForError(origin: string, error: unknown, now: number): ConnectionState | undefined {
  const e = readError(error);
  const message = e.message || String(error);
  const kind = failureKind(error);
  // An invalid key reported inside a streamed answer is as much a key problem as a 401.
  if (kind === 'auth' && (e.status === 401 || e.fromServer)) return { kind: 'unauthorized', origin, message };
  // Only a rate limit pauses the link: a budget or credits refusal (LiteLLM's comes as a 429) has nothing to wait for.
  if (e.status === 429 && kind === 'rate_limit') return { kind: 'rate-limited', origin, until: now + (e.retryAfterMs ?? 0), message };
  if (e.status === 403 && kind === 'forbidden') return { kind: 'forbidden', origin, message };
  if (e.code === 'network' || (e.code === 'timeout' && !e.status)) return { kind: 'offline', origin, message };
  // A 404, a 400 or a 5xx are answers from a reachable, authenticated gateway: they say nothing of the link.
  return undefined;
}

/**
 * Asked before a paid image or video request is sent (the usage feature's confirmation above a threshold): false
 * ends the call as cancelled before anything is sent (and nothing is published).
 */
export type PaidCheck = (call: PaidRequest) => Promise<boolean>;

/** A paid request about to be sent, with the profile (id) it goes with: it is priced by that profile's list. */
export type PaidRequest = ({ method: 'generateImage'; request: ImageRequest } | { method: 'submitVideo'; request: VideoRequest }) & { profile?: string };

export class GatewayConnection {
  private readonly stateChanged = new Emitter<ConnectionState>();
  private readonly clientChanged = new Emitter<void>();

  readonly onDidChangeState: Event<ConnectionState> = this.stateChanged.event;
  /** Fires when the gateway, key or client options change: cached data for the old client is stale. */
  readonly onDidChangeClient: Event<void> = this.clientChanged.event;

  private settings: GatewaySettings;
  private proxy: ProxySetting | undefined;
  private client: { origin: string; api: GatewayApi & { close?(): void }; paceKey: PaceKey; sent: string } | undefined;
  /** A check, after a change of the key or header values, of whether the client still sends what it should. */
  private rechecking: Promise<void> | undefined;
  private creating: Promise<GatewayConnection['client']> | undefined;
  /** Bumped whenever settings or keys change, so a client being created for the old ones is discarded. */
  private generation = 0;
  private currentState: ConnectionState;
  private readonly subscriptions: Array<{ dispose(): void }> = [];
  private readonly pacer: Pacing;
  private readonly ownsPacer: boolean;
  private readonly paceChanged = new Emitter<void>();
  private readonly longWaits = new Emitter<LongPaceWait>();
  /** Fires once per request that waits over a minute while someone waits on it and nobody shows the wait. */
  readonly onLongPaceWait: Event<LongPaceWait> = this.longWaits.event;
  /** Fires when what `pace` says changes (the status bar's "slowing down"). */
  readonly onDidChangePace: Event<void> = this.paceChanged.event;
  private paidCheck: PaidCheck | undefined;
  private readonly callFinished = new Emitter<FinishedCall>();
  /**
   * Fires once for every call that ends (ok, failed or cancelled; not one the paid check declined), before its
   * caller sees the outcome: the usage ledger records it, the models feature learns token ratios from it. Listeners
   * must not throw.
   */
  readonly onDidFinishCall: Event<FinishedCall> = this.callFinished.event;
  private readonly unfilledEmitter = new Emitter<UnfilledHeaders>();
  /** A client was made without some of the profile's headers, which have no value (the user is told how to fill them in). */
  readonly onUnfilledHeaders: Event<UnfilledHeaders> = this.unfilledEmitter.event;

  constructor(
    settings: GatewaySettings,
    private readonly keys: KeySource,
    private readonly createClient: ClientFactory,
    private readonly clock: Clock,
    proxy?: ProxySetting,
    /** The profile this connection serves; its key slot on the origin is keySlot(profile, origin). */
    readonly profile: string = DEFAULT_PROFILE_ID,
    /** Shared with the other windows through its file; a private one (memory only) when not given. */
    pacer?: Pacing,
  ) {
    this.settings = settings;
    this.proxy = proxy;
    this.pacer = pacer ?? new Pacing(clock);
    this.ownsPacer = !pacer;
    this.currentState = settings.origin ? { kind: 'unknown', origin: settings.origin } : { kind: 'no-url' };
    this.subscriptions.push(
      keys.onDidChange((slot) => slot === this.slot && this.recheck()),
      this.pacer.onDidChange((id) => id === this.client?.paceKey.id && this.followPace()),
    );
  }

  /** The rate-limit news of the current gateway and key: waiting for a reset, slowing down, or nothing. */
  get pace(): PaceNews | undefined {
    return this.client ? this.pacer.news(this.client.paceKey.id) : undefined;
  }

  get origin(): string | undefined {
    return this.settings.origin;
  }

  /** Where this profile's key for its origin is kept; undefined without a URL. */
  get slot(): string | undefined {
    return this.origin ? keySlot(this.profile, this.origin) : undefined;
  }

  get baseUrl(): string | undefined {
    return this.settings.baseUrl;
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  updateSettings(settings: GatewaySettings, proxy?: ProxySetting): void {
    const same = JSON.stringify([settings, proxy]) === JSON.stringify([this.settings, this.proxy]);
    const headersOnly = !same && JSON.stringify([{ ...settings, headers: 0 }, proxy]) === JSON.stringify([{ ...this.settings, headers: 0 }, this.proxy]);
    this.settings = settings;
    this.proxy = proxy;
    if (headersOnly) this.recheck();
    else if (!same) this.reset();
  }

  /** Works out whether a key exists for the current origin (no network). */
  async refreshKeyState(): Promise<ConnectionState> {
    const origin = this.origin;
    if (!origin) return this.setState({ kind: 'no-url' });
    if (!(await this.keys.has(this.slot!))) return this.setState({ kind: 'no-key', origin });
    if (this.currentState.kind === 'no-key' || this.currentState.kind === 'no-url') return this.setState({ kind: 'unknown', origin });
    return this.currentState;
  }

  /**
   * The API for the current origin, or undefined when no base URL or key is set. Every call through it
   * updates the connection state.
   */
  async api(): Promise<GatewayApi | undefined> {
    await this.rechecking;
    const origin = this.origin;
    if (!origin || !this.baseUrl) {
      this.setState({ kind: 'no-url' });
      return undefined;
    }
    if (this.client?.origin === origin) return this.observed(origin, this.client.api);
    // Callers that arrive while the key is being read share one client; two would close each other's.
    const generation = this.generation;
    this.creating ??= this.createClientForCurrentOrigin().finally(() => {
      if (this.generation === generation) this.creating = undefined;
    });
    const created = await this.creating;
    if (generation !== this.generation) return this.api();
    return created ? this.observed(created.origin, created.api) : undefined;
  }

  private async createClientForCurrentOrigin(): Promise<GatewayConnection['client']> {
    const generation = this.generation;
    const origin = this.origin!;
    const apiKey = await this.keys.get(this.slot!);
    if (generation !== this.generation) return undefined;
    if (!apiKey) {
      this.setState({ kind: 'no-key', origin });
      return undefined;
    }
    const { baseUrl, timeoutMs, idleTimeoutMs, paths } = this.settings;
    const headers = await this.headersFor(origin);
    if (generation !== this.generation) return undefined;
    const paceKey = paceKeyFor(origin, apiKey);
    const pacing = this.pacer.forKey(paceKey);
    this.client = { origin, paceKey, sent: JSON.stringify([apiKey, headers]), api: this.createClient({ baseUrl: baseUrl!, apiKey, headers, timeoutMs, idleTimeoutMs, ...this.proxyOptions(), ...(paths && { paths }), pacing }) };
    this.paceChanged.fire();
    if (this.currentState.kind === 'no-key' || this.currentState.kind === 'no-url') this.setState({ kind: 'unknown', origin });
    return this.client;
  }

  /** The API and origin, or what is missing. The one check every feature makes. */
  async access(): Promise<GatewayAccess> {
    const api = await this.api();
    const origin = this.origin;
    if (api && origin) return { ok: true, api, origin, profile: this.profile };
    const missing = origin ? 'key' : 'url';
    return { ok: false, missing, origin, profile: this.profile };
  }

  /**
   * What `openResult`/`resolveFinalUrl` need to fetch a result link as the client would reach the gateway: the same
   * proxy, and the key with the configured extra headers scoped to the configured gateway's own origin.
   */
  async resultFetchOptions(): Promise<Pick<OpenResultOptions, 'proxy' | 'proxyStrictSSL' | 'credentials'>> {
    const origin = this.origin;
    const options: Pick<OpenResultOptions, 'proxy' | 'proxyStrictSSL' | 'credentials'> = this.proxyOptions();
    const apiKey = origin ? await this.keys.get(this.slot!) : undefined;
    const headers = origin ? await this.headersFor(origin) : {};
    if (origin && apiKey && origin === this.origin) {
      options.credentials = { origin, headers: { ...headers, authorization: `Bearer ${apiKey}` } };
    }
    return options;
  }

  /** The extra headers sent to `origin`: the names the settings give, with their values from the slot's secrets. */
  private async headersFor(origin: string): Promise<Record<string, string>> {
    const named = this.settings.headers;
    const stored = Object.keys(named).length > 0 && this.keys.headerValues ? await this.keys.headerValues(keySlot(this.profile, origin)) : {};
    const { headers, unfilled } = sendableHeaders(named, stored);
    if (unfilled.length > 0) this.unfilledEmitter.fire({ profile: this.profile, origin, names: unfilled });
    return headers;
  }

  /** The proxy options every request is made with; strictSSL only when it is off, the rare case. */
  private proxyOptions(): { proxy: string | undefined; proxyStrictSSL?: false } {
    return this.proxy?.strictSSL === false ? { proxy: this.proxy.url, proxyStrictSSL: false } : { proxy: this.proxy?.url };
  }

  /** Sets who is asked before paid work is sent (the usage feature's confirmation). */
  setPaidCheck(check: PaidCheck | undefined): void {
    this.paidCheck = check;
  }

  /** Records an outcome observed outside the wrapped API (for example a poll made by another store). */
  report(origin: string, outcome: { ok: true } | { ok: false; error: unknown }): void {
    if (origin !== this.origin) return;
    if (outcome.ok) {
      // A success that said no requests remain leaves the state rate limited (the pacer ends it at the reset); one
      // after a 429's wait (a request already under way) says the link works again.
      const pace = this.pace;
      if (pace?.kind === 'waiting' && pace.reason !== 'blocked') this.followPace();
      else if (this.currentState.kind !== 'connected') this.setState({ kind: 'connected', origin });
      return;
    }
    const next = stateForError(origin, outcome.error, this.clock.now());
    if (next) this.setState(next);
    // A 429 the pacer did not see answered (a client without pacing, a report from outside) still pauses it.
    if (next?.kind !== 'rate-limited') return;
    if (this.client) this.pacer.refused(this.client.paceKey, readError(outcome.error).retryAfterMs);
    if (this.pace?.kind !== 'waiting') this.followPace();
  }

  /** The rate-limited state follows the pacer: it starts when nothing may go, and ends when its wait is over. */
  private followPace(): void {
    const news = this.pace;
    const state = this.currentState;
    // A 429's wait enters the state with the gateway's own words (report); the pacer only moves its end.
    const entering = news?.kind === 'waiting' && (news.reason !== 'blocked' || state.kind === 'rate-limited');
    if (news?.kind === 'waiting' && entering && 'origin' in state) {
      const message = state.kind === 'rate-limited' ? state.message : `No ${news.unit ?? 'requests'} left at ${new URL(state.origin).host} until its limit resets.`;
      this.setState({ kind: 'rate-limited', origin: state.origin, until: news.until, message });
    } else if (news?.kind !== 'waiting' && state.kind === 'rate-limited') this.setState({ kind: 'connected', origin: state.origin });
    this.paceChanged.fire();
  }

  private observed(origin: string, api: GatewayApi): GatewayApi {
    // Every call of every feature passes here: its outcome updates the connection state and is published once,
    // when it finishes (onDidFinishCall).
    return forwardingApi((method, args) => {
      const optionsAt = method === 'listModels' ? 0 : 1;
      const options = args[optionsAt] as RequestOptions | undefined;
      let lastHeaders: (name: string) => string | undefined = () => undefined;
      const sent = [...args];
      // A caller that shows no wait of its own (a command under a progress notice) still lets the user send anyway.
      let offered = false;
      const watched = options?.onPaceWait === undefined && options?.pace !== 'background';
      const onPaceWait = (wait: PaceWait | undefined): void => {
        if (offered || !wait?.sendAnyway) return;
        offered = true;
        this.longWaits.fire({ origin, method, waitMs: wait.waitMs ?? 0, sendAnyway: wait.sendAnyway });
      };
      sent[optionsAt] = {
        ...options,
        onResponseHeaders: (read: (name: string) => string | undefined) => {
          lastHeaders = read;
          options?.onResponseHeaders?.(read);
        },
        ...(watched && { onPaceWait }),
      };
      const callId = options?.callId;
      // A listener's failure is its own (the emitter never throws): the outcome reaches the caller unchanged.
      const finished = (ok: boolean, value: unknown): void =>
        this.callFinished.fire({ origin, ...(callId !== undefined && { callId }), profile: this.profile, method, args, ok, value, header: lastHeaders });
      // Paid work waits for the check's yes (a failing check lets it go: accounting never blocks work).
      const check = this.paidCheck;
      const paid = check && (method === 'generateImage' || method === 'submitVideo') ? check({ method, request: args[0], profile: this.profile } as PaidRequest).catch(() => true) : true;
      let declined = false;
      return Promise.resolve(paid)
        .then((go) => {
          if (go) return invoke(api, method, sent);
          declined = true;
          throw new GatewayError({ status: 0, code: 'aborted', message: 'Not sent (declined).' });
        })
        .then(
          (value) => {
            this.report(origin, { ok: true });
            finished(true, value);
            return value;
          },
          (error: unknown) => {
            this.report(origin, { ok: false, error });
            // A request the user declined before it was sent is no request: nothing to publish.
            if (!declined) finished(false, error);
            throw error;
          },
        );
    });
  }

  /**
   * A change of the key or of the header values (or names) replaces the client only when what it sends changes:
   * moving a header's value from the settings to SecretStorage must not close the client, which would fail the
   * requests in flight. Requests made meanwhile wait for the check.
   */
  private recheck(): void {
    const client = this.client;
    if (!client) return this.reset();
    const generation = this.generation;
    const current = () => generation === this.generation && this.client === client;
    const check: Promise<void> = (async () => {
      const sent = JSON.stringify([await this.keys.get(this.slot!), await this.headersFor(client.origin)]);
      if (current() && sent !== client.sent) this.reset();
    })()
      .catch(() => void (current() && this.reset()))
      .finally(() => {
        if (this.rechecking === check) this.rechecking = undefined;
      });
    this.rechecking = check;
  }

  private reset(): void {
    this.generation++;
    this.creating = undefined;
    this.client?.api.close?.();
    this.client = undefined;
    this.setState(this.origin ? { kind: 'unknown', origin: this.origin } : { kind: 'no-url' });
    this.clientChanged.fire();
    void this.refreshKeyState();
  }

  private setState(state: ConnectionState): ConnectionState {
    if (JSON.stringify(state) !== JSON.stringify(this.currentState)) {
      this.currentState = state;
      this.stateChanged.fire(state);
    }
    return state;
  }

  dispose(): void {
    this.client?.api.close?.();
    this.client = undefined;
    for (const s of this.subscriptions) s.dispose();
    if (this.ownsPacer) this.pacer.dispose();
    this.paceChanged.dispose();
    this.unfilledEmitter.dispose();
    this.longWaits.dispose();
    this.stateChanged.dispose();
    this.clientChanged.dispose();
    this.callFinished.dispose();
  }
}
