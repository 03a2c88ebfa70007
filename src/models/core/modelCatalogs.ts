// The model catalogs: one per profile, each loaded through its own profile's connection (its key, to its origin
// only), and the one home of every cached model list. This object is also the catalog of the window's active
// profile, which List Models, media, videos, usage and VS Code's chat read; a chat reads its own profile's (`for`),
// whichever profile the window uses, and so does VS Code's chat for the other profiles' models.
import type { GatewayConnections } from '../../gateway/connections';
import type { Clock } from '../../util/clock';
import { Emitter, type Disposable, type Event } from '../../util/events';
import type { ModelKind } from './modelKind';
import { ModelCatalog, type CatalogModel, type CatalogSnapshot, type LoadOptions } from './modelCatalog';
import type { RememberedModels } from './rememberedModels';
import { listPlanOf } from './modelSources';
import type { TokenRatios } from './tokenRatios';

export type CatalogConnections = Pick<GatewayConnections, 'active' | 'ready' | 'access' | 'connectionFor' | 'allProfiles' | 'onDidChangeClient' | 'onDidChangeProfileClient' | 'onDidChangeProfiles'>;

export class ModelCatalogs implements Disposable {
  private readonly catalogs = new Map<string, ModelCatalog>();
  private readonly changed = new Emitter<CatalogSnapshot | undefined>();
  /** The active profile's list: fires as its catalog does, and with undefined when another profile becomes active. */
  readonly onDidChange: Event<CatalogSnapshot | undefined> = this.changed.event;
  private activeId: string;
  private readonly subscriptions: Disposable[];

  constructor(
    private readonly connections: CatalogConnections,
    private readonly clock: Clock,
    private readonly ttlMs?: number,
    private readonly memory?: RememberedModels,
    /** Characters per token learned per model (models are named alike on every gateway), loaded on first use. */
    readonly tokens?: () => Pick<TokenRatios, 'scale' | 'observe' | 'settled'>,
  ) {
    this.activeId = connections.active.id;
    this.subscriptions = [
      // A switch: the lists the window's features read are another profile's now (each profile's cache stays).
      connections.onDidChangeClient(() => this.activeId !== connections.active.id && ((this.activeId = connections.active.id), this.changed.fire(undefined))),
      connections.onDidChangeProfiles((profiles) => {
        for (const [id, catalog] of this.catalogs) {
          if (profiles.some((p) => p.id === id)) continue;
          // Its connection is closed: whoever still reads the list is told it is gone.
          catalog.invalidate();
          catalog.dispose();
          this.catalogs.delete(id);
        }
      }),
    ];
  }

  /** The catalog of one profile (by id): its list, loaded with that profile's key from that profile's gateway. */
  for(profile: string): ModelCatalog {
    let catalog = this.catalogs.get(profile);
    if (!catalog) {
      const { connections } = this;
      catalog = new ModelCatalog(
        {
          get origin() {
            return connections.connectionFor(profile)?.origin;
          },
          access: () => connections.access(profile),
          listPlan: () => listPlanOf(connections.allProfiles.find((p) => p.id === profile)?.dialect, connections.connectionFor(profile)?.origin),
          onDidChangeClient: (listener) => connections.onDidChangeProfileClient((id) => id === profile && listener()),
        },
        this.clock,
        this.ttlMs,
        this.memory,
        this.tokens,
      );
      catalog.onDidChange((snapshot) => profile === this.activeId && this.changed.fire(snapshot));
      this.catalogs.set(profile, catalog);
    }
    return catalog;
  }

  private get active(): ModelCatalog {
    return this.for(this.connections.active.id);
  }

  /** The active profile's last list, fresh or not, without asking. */
  get current(): CatalogSnapshot | undefined {
    return this.active.current;
  }

  /** The active profile's list as last given, in this session or an earlier one (see ModelCatalog.known). */
  known(): CatalogSnapshot | undefined {
    return this.active.known();
  }

  /** The active profile's list (see ModelCatalog.load), once the window's profile is known. */
  async load(options?: LoadOptions): Promise<CatalogSnapshot | undefined> {
    await this.connections.ready;
    return this.active.load(options);
  }

  async models(kind?: ModelKind, options?: LoadOptions): Promise<CatalogModel[]> {
    await this.connections.ready;
    return this.active.models(kind, options);
  }

  invalidate(): void {
    this.active.invalidate();
  }

  dispose(): void {
    for (const d of [...this.subscriptions, ...this.catalogs.values(), this.changed]) d.dispose();
    this.catalogs.clear();
  }
}
