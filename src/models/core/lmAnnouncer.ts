// When to tell VS Code that the gateway's chat models may have changed. Telling it makes VS Code ask the provider
// at once, and asking with a key set means a GET /models; so a key or URL change alone says nothing (nobody
// asked for traffic then), and the news goes out when it costs no request or follows one the user caused:
//
// - the key or URL is gone (state no-key / no-url) while VS Code holds models from us: the answer is "none",
//   known without a request;
// - the connection has just worked (state connected) and our last answer is not from a fresh list for it:
//   the models appear in VS Code after the first successful request with a new key;
// - a load (by anyone) produced a list whose chat models differ from what VS Code holds (VS Code's ask is then
//   answered from the cache).
import type { ConnectionState } from '../../gateway/connection';
import type { CatalogSnapshot } from './modelCatalog';

export class ModelAnnouncer {
  /** The chat model ids last handed to VS Code; undefined until it first asks. */
  private provided: string | undefined;
  /** Whether that answer came from a list loaded through the current client. */
  private providedFresh = false;

  /** Call with what the provider returned to VS Code. */
  provide(snapshot: CatalogSnapshot | undefined, loaded: boolean): void {
    this.provided = chatIdsOf(snapshot);
    this.providedFresh = loaded && snapshot !== undefined;
  }

  /** The gateway or key changed: whatever VS Code holds is from the old client. */
  clientChanged(): void {
    this.providedFresh = false;
  }

  onState(state: ConnectionState): boolean {
    if (state.kind === 'no-key' || state.kind === 'no-url') return this.provided !== undefined && this.provided !== '[]';
    if (state.kind === 'connected') return !this.providedFresh;
    return false;
  }

  /** A new list was loaded (asking again costs VS Code nothing then: the list is cached). */
  onCatalog(snapshot: CatalogSnapshot | undefined): boolean {
    if (snapshot === undefined) {
      this.clientChanged();
      return false;
    }
    return chatIdsOf(snapshot) !== this.provided;
  }
}

function chatIdsOf(snapshot: CatalogSnapshot | undefined): string {
  return JSON.stringify((snapshot?.models ?? []).filter((m) => m.kind === 'chat').map((m) => m.id));
}
