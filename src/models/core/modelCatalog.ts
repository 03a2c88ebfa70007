// The gateway's model list, shared by every feature: loaded through the connection when first asked for, kept for
// a short time, dropped when the gateway or key changes. Concurrent callers share one request.
import type { TokenRatios } from './tokenRatios';
import type { GatewayApi } from '../../gateway/types';
import type { Clock } from '../../util/clock';
import { Emitter, type Disposable, type Event } from '../../util/events';
import type { ModelKind } from './modelKind';
import type { CatalogModel, ListPlan, ModelInfoState } from './modelSources';
import { lazy } from '../../util/lazy';

// The lists' requests and the kind rules, on the first load (never at activation).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const listing = lazy(() => require('./modelListing') as typeof import('./modelListing'));
import type { RememberedModels } from './rememberedModels';

export type { CatalogModel } from './modelSources';

export interface CatalogSnapshot {
  readonly origin: string;
  readonly models: readonly CatalogModel[];
  /** Clock time of the response. */
  readonly loadedAt: number;
  /** True for the list remembered from an earlier session: ids and kinds only, not asked for now. */
  readonly remembered?: true;
}

/** What the catalog needs from the connections (the active profile's gateway; access() is the one way in). */
export interface ModelSource {
  readonly origin: string | undefined;
  access(): Promise<{ ok: true; api: GatewayApi } | { ok: false }>;
  readonly onDidChangeClient: Event<void>;
  /** Which lists to ask for (OpenRouter's, LiteLLM's /model/info); absent: /models alone. */
  listPlan?(): ListPlan;
}

export interface LoadOptions {
  /** Ask the gateway even when the cached list is still fresh. */
  force?: boolean;
}

export const DEFAULT_TTL_MS = 5 * 60_000;

export class ModelCatalog implements Disposable {
  private readonly changed = new Emitter<CatalogSnapshot | undefined>();
  /** Fires with the new list after a load that changed it, and with undefined whenever the gateway or key changes. */
  readonly onDidChange: Event<CatalogSnapshot | undefined> = this.changed.event;

  private snapshot: CatalogSnapshot | undefined;
  private inFlight: Promise<CatalogSnapshot | undefined> | undefined;
  /** Whether this gateway answers LiteLLM's /model/info: asked once, on the first load. */
  private modelInfo: ModelInfoState;
  /** Bumped whenever the gateway or key changes: a load started before that must not fill the cache. */
  private generation = 0;
  private readonly subscription: Disposable;

  constructor(
    private readonly source: ModelSource,
    private readonly clock: Clock,
    private readonly ttlMs = DEFAULT_TTL_MS,
    private readonly memory?: RememberedModels,
    /** Characters per token learned per model from the usage gateways report (the chat's context meter), loaded on first use. */
    readonly tokens?: () => Pick<TokenRatios, 'scale' | 'observe' | 'settled'>,
  ) {
    this.subscription = source.onDidChangeClient(() => this.invalidate());
  }

  /** The last list loaded for the current gateway, fresh or not, without asking it. */
  get current(): CatalogSnapshot | undefined {
    return this.snapshot;
  }

  /**
   * The list the current gateway gave when it was last asked, in this session or an earlier one, without asking
   * it now. A remembered list has ids and kinds only.
   */
  known(): CatalogSnapshot | undefined {
    if (this.snapshot) return this.snapshot;
    const origin = this.source.origin;
    const remembered = origin ? this.memory?.get(origin) : undefined;
    if (!origin || !remembered) return undefined;
    return { origin, models: remembered.map((m) => ({ id: m.id, kind: m.kind, raw: { id: m.id, object: 'model' } })), loadedAt: 0, remembered: true };
  }

  isFresh(): boolean {
    return this.snapshot !== undefined && this.clock.now() - this.snapshot.loadedAt < this.ttlMs;
  }

  /**
   * The model list: the cached one while fresh, else from the gateway. Undefined when no gateway URL or key is
   * set (nothing is sent then). Rejects with the gateway's error; the stale list stays in `current`.
   */
  async load(options: LoadOptions = {}): Promise<CatalogSnapshot | undefined> {
    if (!options.force && this.isFresh()) return this.snapshot;
    if (this.inFlight) return this.inFlight;
    const loading = this.fetch().finally(() => {
      if (this.inFlight === loading) this.inFlight = undefined;
    });
    this.inFlight = loading;
    return loading;
  }

  async models(kind?: ModelKind, options?: LoadOptions): Promise<CatalogModel[]> {
    const snapshot = await this.load(options);
    return (snapshot?.models ?? []).filter((m) => kind === undefined || m.kind === kind);
  }

  /** Drops the list; fires even when nothing was cached, since a new key may make models available. */
  invalidate(): void {
    this.generation++;
    this.inFlight = undefined;
    this.modelInfo = undefined;
    this.snapshot = undefined;
    this.changed.fire(undefined);
  }

  private async fetch(): Promise<CatalogSnapshot | undefined> {
    const generation = this.generation;
    const access = await this.source.access();
    const api = access.ok ? access.api : undefined;
    const origin = this.source.origin;
    if (generation !== this.generation) return this.load();
    if (!api || !origin) return undefined;
    let listed: { models: CatalogModel[]; modelInfo: ModelInfoState };
    try {
      listed = await listing().listCatalogModels(api, this.source.listPlan?.(), this.modelInfo);
    } catch (error) {
      if (generation !== this.generation) return this.load();
      throw error;
    }
    if (generation !== this.generation) return this.load();
    this.modelInfo = listed.modelInfo;
    const next: CatalogSnapshot = { origin, models: listed.models, loadedAt: this.clock.now() };
    const previous = this.snapshot;
    this.snapshot = next;
    void this.memory?.remember(origin, next.models, this.clock.now()).catch(() => undefined);
    if (!previous || !sameModels(previous, next)) this.changed.fire(next);
    return next;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function sameModels(a: CatalogSnapshot, b: CatalogSnapshot): boolean {
  const key = (s: CatalogSnapshot) => JSON.stringify([s.origin, s.models.map((m) => [m.id, m.kind, m.ownedBy, m.created])]);
  return key(a) === key(b);
}
