// Test doubles for the chat tests: an in-memory store folder that can fail on demand, and a scriptable gateway.
import type { StoreFileSystem } from '../../../src/chat/fileSystem';
import type { ChatDelta, ChatOptions, ChatRequest, ChatResult, GatewayApi, Model } from '../../../src/gateway/types';

export class MemoryFileSystem implements StoreFileSystem {
  readonly files = new Map<string, string>();
  /** Operation names ('write', 'rename', 'remove', 'append') that throw once, on their next call. */
  readonly failNext = new Set<string>();
  readonly operations: string[] = [];

  private check(operation: string, name: string): void {
    this.operations.push(`${operation} ${name}`);
    if (this.failNext.delete(operation)) throw new Error(`injected ${operation} failure`);
  }

  async read(name: string): Promise<string | undefined> {
    return this.files.get(name);
  }

  async write(name: string, data: string): Promise<void> {
    this.check('write', name);
    this.files.set(name, data);
  }

  async rename(from: string, to: string): Promise<void> {
    this.check('rename', `${from}>${to}`);
    const data = this.files.get(from);
    if (data === undefined) throw new Error(`ENOENT ${from}`);
    this.files.delete(from);
    this.files.set(to, data);
  }

  async remove(name: string): Promise<void> {
    this.check('remove', name);
    this.files.delete(name);
  }

  async list(): Promise<string[]> {
    return [...this.files.keys()];
  }

  appendSync(name: string, data: string): void {
    this.check('append', name);
    this.files.set(name, (this.files.get(name) ?? '') + data);
  }
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
export class FakeGateway implements GatewayApi {
  readonly calls: ChatCall[] = [];
  models: Model[] = [{ id: 'model-k3', object: 'model' }, { id: 'model-1.0-video-edit', object: 'model' }];

  async listModels(): Promise<Model[]> {
    return this.models;
  }

  chat(request: ChatRequest, options?: ChatOptions): Promise<ChatResult> {
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

  submitVideo(): never {
    throw new Error('not used');
  }

  getVideo(): never {
    throw new Error('not used');
  }

  generateImage(): never {
    throw new Error('not used');
  }

  synthesizeSpeech(): never {
    throw new Error('not used');
  }
}
