// Test doubles for the models tests: a gateway whose model list answers when the test says so.
import type { GatewayApi, ListModelsOptions, Model } from '../../../src/gateway/types';
import { ApiDouble } from '../../util/apiDouble';
import { Emitter } from '../../../src/util/events';
import type { ModelSource } from '../../../src/models/core/modelCatalog';
import type { ListPlan } from '../../../src/models/core/modelSources';
import type { Profile } from '../../../src/settings/profile';

interface Pending {
  resolve(models: Model[]): void;
  reject(error: unknown): void;
}

export function model(id: string, extra: Partial<Model> = {}): Model {
  return { id, object: 'model', created: 1_700_000_000, owned_by: 'model-gateway', ...extra };
}

/** listModels() calls wait in `pending` until the test answers them. */
export class ManualGateway extends ApiDouble {
  readonly pending: Pending[] = [];
  listCalls = 0;

  /** The options of every listModels() call, the extra lists' (/model/info, /videos/models) included. */
  readonly asked: Array<ListModelsOptions | undefined> = [];
  /** What the extra lists answer; absent: the gateway does not serve that list (404). */
  extraLists: Partial<Record<'modelInfo' | 'videoModels', Model[]>> = {};

  override listModels(options?: ListModelsOptions): Promise<Model[]> {
    this.asked.push(options);
    if (options?.list && options.list !== 'models') {
      const answer = this.extraLists[options.list];
      return answer ? Promise.resolve(answer) : Promise.reject(Object.assign(new Error('Not Found'), { status: 404 }));
    }
    this.listCalls++;
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }));
  }

  answer(models: Model[]): void {
    const next = this.pending.shift();
    if (!next) throw new Error('no listModels call is waiting');
    next.resolve(models);
  }

  fail(error: unknown): void {
    const next = this.pending.shift();
    if (!next) throw new Error('no listModels call is waiting');
    next.reject(error);
  }
}

export class FakeSource implements ModelSource {
  origin: string | undefined = 'https://gw.example';
  gateway: GatewayApi | undefined = new ManualGateway();
  apiCalls = 0;
  listPlan?: () => ListPlan;
  private readonly clientChanged = new Emitter<void>();
  readonly onDidChangeClient = this.clientChanged.event;

  async access(): Promise<{ ok: true; api: GatewayApi } | { ok: false }> {
    this.apiCalls++;
    return this.gateway ? { ok: true, api: this.gateway } : { ok: false };
  }

  /** What GatewayConnection does when the URL or key changes. */
  switchTo(origin: string | undefined, gateway: GatewayApi | undefined): void {
    this.origin = origin;
    this.gateway = gateway;
    this.clientChanged.fire();
  }

  get listenerCount(): number {
    return this.clientChanged.listenerCount;
  }
}

/** Lets pending promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * Several profiles' connections as ModelCatalogs sees them (GatewayConnections' part it uses): each profile has its
 * own source (origin and gateway), and `access(profile)` reaches that profile's source only.
 */
export class FakeConnections<S extends FakeSource = FakeSource> {
  private activeId: string;
  private readonly clientChanged = new Emitter<void>();
  private readonly profileClientChanged = new Emitter<string>();
  private readonly profilesChanged = new Emitter<readonly Profile[]>();
  readonly onDidChangeClient = this.clientChanged.event;
  readonly onDidChangeProfileClient = this.profileClientChanged.event;
  readonly onDidChangeProfiles = this.profilesChanged.event;
  ready: Promise<void> = Promise.resolve();
  /** Which profile each access() was for, in order. */
  readonly accessed: string[] = [];

  constructor(readonly sources: Map<string, S>, active = [...sources.keys()][0]) {
    this.activeId = active;
    for (const [id, source] of sources) source.onDidChangeClient(() => this.profileClientChanged.fire(id));
  }

  get allProfiles(): Profile[] {
    return [...this.sources.keys()].map((id) => ({ id, name: id, baseUrl: '', headers: {}, models: {} }));
  }

  get profiles(): Profile[] {
    return this.allProfiles;
  }

  get active(): Profile {
    return this.allProfiles.find((p) => p.id === this.activeId)!;
  }

  connectionFor(id?: string): S | undefined {
    return this.sources.get(id ?? this.activeId);
  }

  async access(id?: string): Promise<{ ok: true; api: GatewayApi } | { ok: false; missing: 'url' }> {
    this.accessed.push(id ?? this.activeId);
    const source = this.sources.get(id ?? this.activeId);
    if (!source) return { ok: false, missing: 'url' };
    return (await source.access()) as { ok: true; api: GatewayApi } | { ok: false; missing: 'url' };
  }

  switchTo(id: string): void {
    this.activeId = id;
    this.clientChanged.fire();
  }

  remove(id: string): void {
    this.sources.delete(id);
    this.profilesChanged.fire(this.allProfiles);
  }
}
