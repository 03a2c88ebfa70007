// Test doubles for the chat tests: an in-memory store folder that can fail on demand, and a scriptable gateway.
import type { StoreFileSystem } from '../../../src/util/storeFileSystem';
import type { ChatDelta, ChatOptions, ChatRequest, ChatResult, Model } from '../../../src/gateway/types';
import { ApiDouble } from '../../util/apiDouble';

/** A pause at one operation: `reached` resolves when the operation starts; it goes on after `release()`. */
export interface Hold {
  reached: Promise<void>;
  release(): void;
}

export class MemoryFileSystem implements StoreFileSystem {
  readonly location = '/memory/chat';
  readonly files = new Map<string, string>();
  /** Modification times, from `now`. */
  readonly modified = new Map<string, number>();
  /** Operation names ('write', 'rename', 'remove', 'append') that throw once, on their next call. */
  readonly failNext = new Set<string>();
  readonly operations: string[] = [];
  /** Every write fails as on a read-only folder (EROFS) while this is set. */
  readOnly = false;
  private readonly holds = new Map<string, { name: RegExp; reached: () => void; released: Promise<void> }>();

  /** Two stores on one MemoryFileSystem are two windows on one folder. */
  constructor(private readonly now: () => number = () => 0) {}

  /** Makes the next call of `operation` (on a name matching `name`) wait until released. */
  hold(operation: string, name: RegExp = /./): Hold {
    let reached!: () => void;
    let release!: () => void;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.set(operation, { name, reached, released });
    return { reached: reachedPromise, release };
  }

  private async check(operation: string, name: string): Promise<void> {
    this.operations.push(`${operation} ${name}`);
    const hold = this.holds.get(operation);
    if (hold?.name.test(name)) {
      this.holds.delete(operation);
      hold.reached();
      await hold.released;
    }
    if (this.failNext.delete(operation)) throw new Error(`injected ${operation} failure`);
    if (this.readOnly) throw readOnlyError(operation, name);
  }

  private set(name: string, data: string): void {
    this.files.set(name, data);
    this.modified.set(name, this.now());
  }

  async read(name: string): Promise<string | undefined> {
    return this.files.get(name);
  }

  async write(name: string, data: string): Promise<void> {
    await this.check('write', name);
    this.set(name, data);
  }

  async rename(from: string, to: string): Promise<void> {
    await this.check('rename', `${from}>${to}`);
    const data = this.files.get(from);
    if (data === undefined) throw Object.assign(new Error(`ENOENT: no such file, rename '${from}'`), { code: 'ENOENT' });
    const modified = this.modified.get(from) ?? this.now();
    this.files.delete(from);
    this.modified.delete(from);
    this.files.set(to, data);
    this.modified.set(to, modified);
  }

  async remove(name: string): Promise<void> {
    await this.check('remove', name);
    this.files.delete(name);
    this.modified.delete(name);
  }

  async list(): Promise<string[]> {
    return [...this.files.keys()];
  }

  appendSync(name: string, data: string): void {
    this.operations.push(`append ${name}`);
    if (this.failNext.delete('append')) throw new Error('injected append failure');
    if (this.readOnly) throw readOnlyError('append', name);
    this.set(name, (this.files.get(name) ?? '') + data);
  }

  async createExclusive(name: string, data: string): Promise<boolean> {
    await this.check('create', name);
    if (this.files.has(name)) return false;
    this.set(name, data);
    return true;
  }

  async modifiedAt(name: string): Promise<number | undefined> {
    return this.modified.get(name);
  }

  async touch(name: string): Promise<void> {
    if (this.files.has(name)) this.modified.set(name, this.now());
  }
}

function readOnlyError(operation: string, name: string): Error {
  return Object.assign(new Error(`EROFS: read-only file system, ${operation} '${name}'`), { code: 'EROFS' });
}

export function result(content: string, extra: Partial<ChatResult> = {}): ChatResult {
  return {
    id: 'chatcmpl-1',
    model: 'model-k3',
    created: 1,
    content,
    reasoning: '',
    refusal: '',
    toolCalls: [],
    finishReason: 'stop',
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    ...extra,
  };
}

/** Error shaped like the client's GatewayError. */
export function gatewayError(fields: { status?: number; code: string; message?: string; retryAfterMs?: number; partial?: ChatResult }): Error {
  return Object.assign(new Error(fields.message ?? fields.code), { status: 0, ...fields });
}

export interface ChatCall {
  request: ChatRequest;
  options: ChatOptions | undefined;
  /** Sends deltas the way the client does while the request is open. */
  emit(delta: ChatDelta): void;
  resolve(result: ChatResult): void;
  reject(error: unknown): void;
}

/** Every chat call waits until the test answers it through `calls`. An abort rejects it like the client does. */
export class FakeGateway extends ApiDouble {
  readonly calls: ChatCall[] = [];
  models: Model[] = [{ id: 'model-k3', object: 'model' }, { id: 'model-1.0-video-edit', object: 'model' }];

  override async listModels(): Promise<Model[]> {
    return this.models;
  }

  override chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResult> {
    return new Promise<ChatResult>((resolve, reject) => {
      let text = '';
      const call: ChatCall = {
        request,
        options,
        emit: (delta) => {
          text += delta.content ?? '';
          options?.onDelta?.(delta);
        },
        resolve,
        reject,
      };
      options?.signal?.addEventListener('abort', () => reject(gatewayError({ code: 'aborted', message: 'aborted', partial: result(text, { finishReason: null, usage: null }) })));
      this.calls.push(call);
    });
  }
}
