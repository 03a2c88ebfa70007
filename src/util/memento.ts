/** The part of VS Code's `Memento` (`context.globalState`) that stores need, for facts that are not secret. */
export interface Memento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}
