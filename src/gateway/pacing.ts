// What activation holds of the rate-limit pacing: the key naming and a small front that loads the pacer
// (pacer.ts, its own file in the bundle) on first use, which is the first request or 429. Until then there is
// nothing to say: no request has been paced.
import type { Clock } from '../util/clock';
import { Emitter, type Disposable, type Event } from '../util/events';
import { lazy } from '../util/lazy';
import type { PaceKey } from './paceKey';
import type { Pacer, PaceNews, RequestPacing } from './pacer';

// The pacer loads with the first request, not at activation.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pacerModule = lazy(() => require('./pacer') as typeof import('./pacer'));

export class Pacing implements Disposable {
  private pacer: Pacer | undefined;
  private readonly changed = new Emitter<string>();
  /** Fires with a key id when what `news(id)` says changes. */
  readonly onDidChange: Event<string> = this.changed.event;
  private disposed = false;

  constructor(
    private readonly clock: Clock,
    /** The file shared with the other windows; memory only when absent. */
    private readonly filePath?: string,
  ) {}

  forKey(key: PaceKey): RequestPacing {
    return { admit: (request) => this.loaded().admit(key, request) };
  }

  news(id: string): PaceNews | undefined {
    return this.pacer?.news(id);
  }

  refused(key: PaceKey, retryAfterMs: number | undefined): void {
    if (retryAfterMs !== undefined) this.loaded().refused(key, retryAfterMs);
  }

  private loaded(): Pacer {
    if (this.disposed) throw new Error('The gateway connection was closed.');
    if (!this.pacer) {
      this.pacer = pacerModule().createPacer(this.clock, this.filePath);
      this.pacer.onDidChange((id) => this.changed.fire(id));
    }
    return this.pacer;
  }

  dispose(): void {
    this.disposed = true;
    this.pacer?.dispose();
    this.changed.dispose();
  }
}
