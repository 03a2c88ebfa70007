// A minimal event emitter shaped like VS Code's, so pure modules can expose events without importing `vscode`.

export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Disposable;

export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    const wrapped = (value: T) => listener(value);
    this.listeners.add(wrapped);
    return { dispose: () => this.listeners.delete(wrapped) };
  };

  /** Calls every listener; a throwing listener does not keep the others from being called. */
  fire(value: T): void {
    let firstError: unknown;
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        firstError ??= error;
      }
    }
    if (firstError !== undefined) queueMicrotask(() => { throw firstError; });
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  dispose(): void {
    this.listeners.clear();
  }
}
