// Test doubles for the models tests: a gateway whose model list answers when the test says so.
import type { GatewayApi, Model } from '../../../src/gateway/types';
import { ApiDouble } from '../../util/apiDouble';
import { Emitter } from '../../../src/util/events';
import type { ModelSource } from '../../../src/models/core/modelCatalog';

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

  override listModels(): Promise<Model[]> {
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
