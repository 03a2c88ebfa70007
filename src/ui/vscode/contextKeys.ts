// UI adapter: the context keys this extension sets, for `when` clauses, welcome views and the walkthrough's
// completion events (the Video Jobs view sets its own: modelGateway.videoJobs.empty and modelGateway.hasVideoJobs). Each key is set from a fact known for sure (a key read back from secret storage, a request
// that worked, a chat tab that exists, a job in the list), never from a passing state: a walkthrough step, once
// ticked, stays ticked.
import * as vscode from 'vscode';
import type { ConnectionState } from '../../gateway/connection';
import type { Event } from '../../util/events';

export const CONTEXT_KEYS = {
  /** A gateway URL is set. */
  hasBaseUrl: 'modelGateway.hasBaseUrl',
  /** Secret storage holds a key for that gateway. */
  hasApiKey: 'modelGateway.hasApiKey',
  /** The last request to the gateway worked. */
  connected: 'modelGateway.connected',
  /** A chat panel is open (in any tab group, focused or not). */
  chatOpen: 'modelGateway.chatOpen',
} as const;

export interface ContextFacts {
  /** The active profile's connection; `slot` is where its key is kept (keySlot: the profile on its origin). */
  connection: { readonly slot: string | undefined; readonly state: ConnectionState; readonly onDidChangeState: Event<ConnectionState> };
  hasKey(slot: string): PromiseLike<boolean>;
  readonly onDidChangeKey: Event<string>;
  /** The view type of the chat panels. */
  chatViewType: string;
}

export class ExtensionContextKeys implements vscode.Disposable {
  private readonly values = new Map<string, boolean>();
  private readonly subscriptions: Array<{ dispose(): void }> = [];
  /** Bumped on every key check, so an older, slower check does not overwrite a newer answer. */
  private keyCheck = 0;

  constructor(private readonly facts: ContextFacts) {
    this.subscriptions.push(
      facts.connection.onDidChangeState((state) => {
        this.onConnection(state);
        void this.checkKey();
      }),
      facts.onDidChangeKey(() => void this.checkKey()),
      vscode.window.tabGroups.onDidChangeTabs(() => this.checkChatTabs()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.checkChatTabs()),
    );
    this.onConnection(facts.connection.state);
    this.checkChatTabs();
    void this.checkKey();
  }

  /** The value last set for a key (undefined before the first). */
  get(key: string): boolean | undefined {
    return this.values.get(key);
  }

  /** Resolves when the key check started last has set its answer. */
  async checkKey(): Promise<void> {
    const check = ++this.keyCheck;
    // The active profile's own key: another profile's key for the same gateway is not this one's.
    const slot = this.facts.connection.slot;
    const has = slot !== undefined && (await this.facts.hasKey(slot));
    if (check === this.keyCheck) this.set(CONTEXT_KEYS.hasApiKey, has);
  }

  private onConnection(state: ConnectionState): void {
    this.set(CONTEXT_KEYS.hasBaseUrl, state.kind !== 'no-url');
    this.set(CONTEXT_KEYS.connected, state.kind === 'connected');
  }

  private checkChatTabs(): void {
    const open = vscode.window.tabGroups.all.some((group) =>
      group.tabs.some((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(this.facts.chatViewType)),
    );
    this.set(CONTEXT_KEYS.chatOpen, open);
  }

  private set(key: string, value: boolean): void {
    if (this.values.get(key) === value) return;
    this.values.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
