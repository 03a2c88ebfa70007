// Which window polls a gateway: a lock file in the shared folder with the holder's id and a heartbeat, the way
// git's index.lock and VS Code's own single-instance locks work, plus a heartbeat so a crashed window cannot hold
// it forever. The holder rewrites the heartbeat every `heartbeatMs`; the others read it every `heartbeatMs` and
// take a lock whose heartbeat is older than `staleMs` over. File operations are synchronous: the files are a few
// bytes, and a decision made in one step cannot interleave with another window's step in this process.
import { createHash } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock, TimerHandle } from '../../util/clock';
import { Emitter, type Disposable } from '../../util/events';
import { createExclusiveSync, replaceSync } from '../../util/atomicFile';

export interface LeaseTiming {
  /** How often the holder renews the heartbeat, and how often the others look at it. */
  heartbeatMs?: number;
  /** A heartbeat older than this means the holder is gone (crashed, killed, or hung). */
  staleMs?: number;
  /** After writing a takeover, wait this long and read again: of two windows taking over at once, the last writer wins. */
  settleMs?: number;
}

export interface LeaseOptions extends LeaseTiming {
  folder: string;
  /** What the lease is for (a gateway origin); the file is named after its hash. */
  resource: string;
  owner: string;
  clock: Clock;
  onError?: (error: unknown) => void;
}

interface LockContent {
  owner: string;
  resource: string;
  heartbeatAt: number;
}

export const DEFAULT_LEASE_TIMING: Required<LeaseTiming> = { heartbeatMs: 1_000, staleMs: 5_000, settleMs: 250 };

export function leaseFileName(resource: string): string {
  return `${createHash('sha256').update(resource).digest('hex').slice(0, 24)}.lock`;
}

type State = 'waiting' | 'claiming' | 'held';

/** Tries to hold the lease from construction until disposed; `held` says whether it does now. */
export class PollLease implements Disposable {
  private readonly path: string;
  private readonly timing: Required<LeaseTiming>;
  private state: State = 'waiting';
  private timer: TimerHandle | undefined;
  private disposed = false;
  private readonly changeEmitter = new Emitter<boolean>();
  /** Fires true when this window starts holding the lease, false when it stops. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly options: LeaseOptions) {
    this.path = join(options.folder, leaseFileName(options.resource));
    this.timing = {
      heartbeatMs: options.heartbeatMs ?? DEFAULT_LEASE_TIMING.heartbeatMs,
      staleMs: options.staleMs ?? DEFAULT_LEASE_TIMING.staleMs,
      settleMs: options.settleMs ?? DEFAULT_LEASE_TIMING.settleMs,
    };
    this.tick();
  }

  get held(): boolean {
    return this.state === 'held';
  }

  /** Gives the lease up (deleting the lock if it is still this window's) and stops trying. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer !== undefined) this.options.clock.clearTimeout(this.timer);
    if (this.state !== 'waiting' && this.isMine(this.read())) this.attempt(() => unlinkSync(this.path));
    this.setState('waiting');
    this.changeEmitter.dispose();
  }

  private tick(): void {
    if (this.disposed) return;
    this.attempt(() => this.step());
    const delay = this.state === 'claiming' ? this.timing.settleMs : this.timing.heartbeatMs;
    this.timer = this.options.clock.setTimeout(() => this.tick(), delay);
  }

  private step(): void {
    const now = this.options.clock.now();
    const current = this.read();
    const mine = this.isMine(current);
    switch (this.state) {
      case 'held':
        if (mine) this.writeHeartbeat(now);
        else if (current === undefined && this.create(now)) return;
        else this.setState('waiting');
        return;
      case 'claiming':
        // Still ours after the settle time: no other window overwrote the takeover.
        if (mine) {
          this.writeHeartbeat(now);
          this.setState('held');
        } else this.setState('waiting');
        return;
      case 'waiting':
        if (current === undefined) {
          if (this.create(now)) this.setState('held');
        } else if (mine) {
          this.setState('held');
        } else if (current === 'unreadable' || this.isStale(current, now)) {
          this.writeHeartbeat(now);
          this.state = 'claiming';
        }
        return;
    }
  }

  private isMine(content: LockContent | 'unreadable' | undefined): boolean {
    return typeof content === 'object' && content.owner === this.options.owner;
  }

  private isStale(content: LockContent, now: number): boolean {
    const age = now - content.heartbeatAt;
    return age > this.timing.staleMs || age < -this.timing.staleMs;
  }

  /** The lock's content; undefined when there is none, 'unreadable' when it is not a lock this code wrote. */
  private read(): LockContent | 'unreadable' | undefined {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const value = JSON.parse(text) as Partial<LockContent>;
      if (typeof value.owner === 'string' && typeof value.heartbeatAt === 'number') return { owner: value.owner, resource: String(value.resource), heartbeatAt: value.heartbeatAt };
    } catch {
      // Fall through.
    }
    return 'unreadable';
  }

  private content(now: number): string {
    return JSON.stringify({ owner: this.options.owner, resource: this.options.resource, heartbeatAt: now, pid: process.pid });
  }

  /** Creates the lock only if there is none. */
  private create(now: number): boolean {
    return createExclusiveSync(this.path, this.content(now));
  }

  private writeHeartbeat(now: number): void {
    replaceSync(this.path, this.content(now));
  }

  private setState(state: State): void {
    const was = this.state === 'held';
    this.state = state;
    if (was !== (state === 'held') && !this.disposed) this.changeEmitter.fire(state === 'held');
  }

  private attempt(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.options.onError?.(error);
    }
  }
}

export interface OriginLeasesOptions extends LeaseTiming {
  folder: string;
  owner: string;
  clock: Clock;
  onDidChange: (origin: string, held: boolean) => void;
  onError?: (error: unknown) => void;
}

/** One lease per gateway origin, held (or tried for) exactly while the store has jobs to poll there. */
export class OriginLeases implements Disposable {
  private readonly leases = new Map<string, { lease: PollLease; subscription: Disposable }>();

  constructor(private readonly options: OriginLeasesOptions) {}

  /** Tries for the leases of `origins` and gives up the others (telling `onDidChange` of each one let go). */
  want(origins: ReadonlySet<string>): void {
    for (const [origin, entry] of this.leases) {
      if (origins.has(origin)) continue;
      this.leases.delete(origin);
      const wasHeld = entry.lease.held;
      entry.subscription.dispose();
      entry.lease.dispose();
      if (wasHeld) this.options.onDidChange(origin, false);
    }
    for (const origin of origins) {
      if (this.leases.has(origin)) continue;
      const lease = new PollLease({ ...this.options, resource: origin });
      const subscription = lease.onDidChange((held) => this.options.onDidChange(origin, held));
      this.leases.set(origin, { lease, subscription });
      if (lease.held) this.options.onDidChange(origin, true);
    }
  }

  held(origin: string): boolean {
    return this.leases.get(origin)?.lease.held ?? false;
  }

  dispose(): void {
    this.want(new Set());
  }
}
