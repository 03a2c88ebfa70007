// Whether this extension host still has a window. In a browser (code-server, Codespaces, `code serve-web`), closing
// the tab leaves the extension host running for hours, waiting for the window to reconnect: it must not keep
// polling for everyone or announce finished jobs where nobody sees them. A round trip to the window (`ping`) that
// does not come back within `timeoutMs` means the window is gone; one that comes back means it is there again.
import type { Clock, TimerHandle } from '../../util/clock';
import { Emitter, type Disposable, type Event } from '../../util/events';

export interface Presence {
  readonly attached: boolean;
  readonly onDidChange: Event<boolean>;
}

export interface WindowPresenceOptions {
  clock: Clock;
  /** A call answered by the window (for example setting a context key); it never settles while the window is gone. */
  ping: () => PromiseLike<unknown>;
  intervalMs?: number;
  timeoutMs?: number;
}

export class WindowPresence implements Presence, Disposable {
  private current = true;
  private timer: TimerHandle | undefined;
  private late: TimerHandle | undefined;
  private disposed = false;
  private readonly emitter = new Emitter<boolean>();
  readonly onDidChange = this.emitter.event;

  constructor(private readonly options: WindowPresenceOptions) {
    this.schedule();
  }

  get attached(): boolean {
    return this.current;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    if (this.late !== undefined) this.options.clock.clearTimeout(this.late);
    this.emitter.dispose();
  }

  private schedule(): void {
    if (this.disposed) return;
    this.timer = this.options.clock.setTimeout(() => this.probe(), this.options.intervalMs ?? 2_000);
  }

  private probe(): void {
    const late = this.options.clock.setTimeout(() => {
      this.late = undefined;
      this.set(false);
    }, this.options.timeoutMs ?? 2_000);
    this.late = late;
    const settle = () => {
      if (this.late === late) this.options.clock.clearTimeout(late);
      this.late = undefined;
      this.set(true);
      this.schedule();
    };
    // A window that answers is there, whatever it answered.
    Promise.resolve(this.options.ping()).then(settle, settle);
  }

  private set(attached: boolean): void {
    if (this.disposed || attached === this.current) return;
    this.current = attached;
    this.emitter.fire(attached);
  }
}
