// Every profile's connection, and which profile this window uses. There is one way in: `access(profile?)` gives the
// API of a profile (this window's active one when none is named) with that profile's key for that profile's origin,
// or says what is missing. The active profile changes only through switchTo, which only the user's command calls:
// nothing here switches on an error, on focus or when another window switches.
import { Emitter, type Event } from '../util/events';
import type { Clock } from '../util/clock';
import type { GatewaySettings } from '../settings/settings';
import { DEFAULT_PROFILE_ID, defaultProfile, findProfile, isDefaultProfile, profileGateway, type Profile } from '../settings/profile';
import { GatewayConnection, type PaidCheck, type ClientFactory, type ConnectionState, type GatewayAccess, type KeySource, type LongPaceWait, type UnfilledHeaders } from './connection';
import type { FinishedCall } from './callReport';
import type { ProxySetting } from './proxy';
import type { OpenResultOptions } from './resultFetch';
import type { PaceNews } from './pacer';
import type { Pacing } from './pacing';

type FetchOptions = Pick<OpenResultOptions, 'proxy' | 'proxyStrictSSL' | 'credentials'>;

export class GatewayConnections {
  private readonly connections = new Map<string, GatewayConnection>();
  private readonly stateChanged = new Emitter<ConnectionState>();
  private readonly clientChanged = new Emitter<void>();
  /** The active profile's state; fires on a switch (and a change of the workspace binding) too. */
  readonly onDidChangeState: Event<ConnectionState> = this.stateChanged.event;
  /** The active profile's gateway, key or client options changed, or another profile became active. */
  readonly onDidChangeClient: Event<void> = this.clientChanged.event;
  private readonly profilesChanged = new Emitter<readonly Profile[]>();
  private readonly paceChanged = new Emitter<void>();
  private readonly longWaits = new Emitter<LongPaceWait>();
  /** A request of any profile that waits over a minute for the rate limit, its wait shown by nobody (connection.ts). */
  readonly onLongPaceWait: Event<LongPaceWait> = this.longWaits.event;
  /** The active profile's rate-limit news changed (or another profile became active). */
  readonly onDidChangePace: Event<void> = this.paceChanged.event;
  /** The profile list changed (here or in another window). */
  readonly onDidChangeProfiles: Event<readonly Profile[]> = this.profilesChanged.event;
  private readonly anyClientChanged = new Emitter<string>();
  /** Any profile's gateway, key or client options changed: fires its id (onDidChangeClient is the active one's only). */
  readonly onDidChangeProfileClient: Event<string> = this.anyClientChanged.event;
  private readonly unfilledEmitter = new Emitter<UnfilledHeaders>();
  /** Some profile's client was made without headers that have no value yet. */
  readonly onUnfilledHeaders: Event<UnfilledHeaders> = this.unfilledEmitter.event;
  /** Until the profile store has read its file (after activation), Default, which the settings describe, is all there is. */
  private list: readonly Profile[] = [defaultProfile()];
  private paidCheck: PaidCheck | undefined;
  private readonly callFinished = new Emitter<FinishedCall>();
  /** Every profile's finished calls, each once (GatewayConnection.onDidFinishCall). */
  readonly onDidFinishCall: Event<FinishedCall> = this.callFinished.event;
  private activeId: string = DEFAULT_PROFILE_ID;
  /**
   * Settles once this window's profile is known (the list read and the workspace's or user's choice applied; the
   * auth feature sets it, and it never rejects). Until then the connections hold Default only, so every request
   * waits for it (access, accessSlot, resultFetchOptions) and so does whatever reads `active` to decide (a new
   * chat, a command): nothing acts on Default by mistake.
   */
  ready: Promise<void> = Promise.resolve();
  /** The id of the profile this workspace is bound to ("Use This Profile in This Workspace"), if any. */
  workspaceBinding: string | undefined;

  constructor(
    private gateway: GatewaySettings,
    private readonly keys: KeySource,
    private readonly createClient: ClientFactory,
    private readonly clock: Clock,
    private proxy?: ProxySetting,
    /** One pacing state per origin and key, shared by every profile's connection and with the other windows. */
    private readonly pacer?: Pacing,
  ) {}

  /** The profiles to offer and name (not retired ones: see Profile.retired). */
  get profiles(): readonly Profile[] {
    return this.list.filter((p) => !p.retired);
  }

  /** Every profile, retired ones too: their video jobs are still shown and polled with their keys. */
  get allProfiles(): readonly Profile[] {
    return this.list;
  }

  /** The profile store's list (read, or changed here or in another window). */
  setProfiles(profiles: readonly Profile[]): void {
    // Never empty: the store always keeps Default.
    this.list = profiles;
    this.syncProfiles();
    this.profilesChanged.fire(profiles);
  }

  /** This window's profile. */
  get active(): Profile {
    return this.profile(this.activeId) ?? this.list[0];
  }

  /** A profile by id or name; a retired one only by its id (a chat or job that still names it). */
  profile(idOrName: string | undefined): Profile | undefined {
    const wanted = idOrName ?? this.activeId;
    return findProfile(this.profiles, wanted) ?? this.list.find((p) => p.id === wanted);
  }

  /** Records the workspace's binding (kept in workspaceState by the auth feature), for the status bar. */
  setWorkspaceBinding(id: string | undefined): void {
    this.workspaceBinding = id;
    this.stateChanged.fire(this.state);
  }

  /** Makes another profile this window's; only the user's command (or a script's) calls this. */
  switchTo(idOrName: string): Profile | undefined {
    const profile = this.profile(idOrName);
    if (!profile || profile.retired) return undefined;
    if (profile.id === this.activeId) return profile;
    this.activeId = profile.id;
    this.clientChanged.fire();
    this.paceChanged.fire();
    this.stateChanged.fire(this.state);
    void this.refreshKeyState();
    return profile;
  }

  /** Sets the usage feature's check before paid work on every profile's connection, now and to come (see GatewayConnection). */
  setPaidCheck(check: PaidCheck | undefined): void {
    this.paidCheck = check;
    for (const connection of this.connections.values()) connection.setPaidCheck(check);
  }

  /** The connection of a profile (the active one when none is named); undefined for a profile that does not exist. */
  connectionFor(idOrName?: string): GatewayConnection | undefined {
    const profile = this.profile(idOrName);
    if (!profile) return undefined;
    let connection = this.connections.get(profile.id);
    if (!connection) {
      connection = new GatewayConnection(profileGateway(profile, this.gateway), this.keys, this.createClient, this.clock, this.proxy, profile.id, this.pacer);
      const id = profile.id;
      connection.onDidChangePace(() => id === this.activeId && this.paceChanged.fire());
      connection.onUnfilledHeaders((unfilled) => this.unfilledEmitter.fire(unfilled));
      connection.onLongPaceWait((wait) => this.longWaits.fire(wait));
      connection.onDidChangeState((state) => id === this.activeId && this.stateChanged.fire(state));
      connection.onDidChangeClient(() => {
        this.anyClientChanged.fire(id);
        if (id === this.activeId) this.clientChanged.fire();
      });
      connection.onDidFinishCall((call) => this.callFinished.fire(call));
      connection.setPaidCheck(this.paidCheck);
      this.connections.set(profile.id, connection);
    }
    return connection;
  }

  /**
   * The one way to the gateway: the API of a profile (by id or name; this window's active profile when none is
   * given), with that profile's key for its origin only, or what is missing.
   */
  async access(profile?: string): Promise<GatewayAccess> {
    await this.ready;
    // A deleted profile sends nothing, and nor does a retired one: the user deleted it, and its key is kept only
    // for the jobs it already runs (polled through accessSlot). A chat still under it is told to change profile.
    const connection = this.connectionFor(profile);
    const named = this.profile(profile);
    if (!connection || named?.retired) return { ok: false, missing: 'profile', profile };
    const access = await connection.access();
    return access.ok && named ? { ...access, profileName: named.name } : access;
  }

  /**
   * The API of the profile whose key slot is `slot` (keySlot(profile, origin)), as long as that profile still
   * reaches that origin: a job or a link keeps to the profile and origin it was made with, whichever is active.
   */
  async accessSlot(slot: string): Promise<GatewayAccess> {
    await this.ready;
    for (const profile of this.list) {
      const connection = this.connectionFor(profile.id);
      if (connection?.slot === slot) return connection.access();
    }
    return { ok: false, missing: 'key' };
  }

  /**
   * The proxy, and the profile's key with its headers scoped to its own origin (the fetch sends them nowhere else),
   * for fetching a result link as the client would. An unknown profile gets Default's, scoped to Default's origin.
   */
  async resultFetchOptions(profile?: string): Promise<FetchOptions> {
    await this.ready;
    return (this.connectionFor(profile) ?? this.connectionFor(DEFAULT_PROFILE_ID)!).resultFetchOptions();
  }

  /** The key slot of a profile on its current origin: where its key lives, and the name its video jobs poll under. */
  slotOf(profile?: string): string | undefined {
    return this.connectionFor(profile)?.slot;
  }

  /** The active profile's gateway (what the status bar, the welcome views and messages name). */
  // The active profile always exists (a deleted one falls back to Default, which is never deleted).
  get origin(): string | undefined {
    return this.connectionFor()!.origin;
  }

  get baseUrl(): string | undefined {
    return this.connectionFor()!.baseUrl;
  }

  /** Where the active profile's key for its origin is kept (two profiles on one gateway keep two keys). */
  get slot(): string | undefined {
    return this.connectionFor()!.slot;
  }

  get state(): ConnectionState {
    return this.connectionFor()!.state;
  }

  /** The active profile's rate-limit news: waiting for a reset, slowing down, or nothing. */
  get pace(): PaceNews | undefined {
    return this.connectionFor()!.pace;
  }

  refreshKeyState(): Promise<ConnectionState> {
    return this.connectionFor()!.refreshKeyState();
  }

  /** New user settings: the Default profile's gateway, and every profile's timeouts, paths and proxy. */
  updateSettings(gateway: GatewaySettings, proxy?: ProxySetting): void {
    this.gateway = gateway;
    this.proxy = proxy;
    this.syncProfiles();
  }

  /** Applies the profile list and settings to each connection; a deleted profile's connection is closed. */
  private syncProfiles(): void {
    for (const [id, connection] of this.connections) {
      const profile = this.list.find((p) => p.id === id);
      if (profile) connection.updateSettings(profileGateway(profile, this.gateway), this.proxy);
      else {
        connection.dispose();
        this.connections.delete(id);
      }
    }
    // The active profile was deleted in another window: this window falls back to Default and says so in the status bar.
    if (!this.list.some((p) => p.id === this.activeId && !p.retired) && !isDefaultProfile(this.activeId)) this.switchTo(DEFAULT_PROFILE_ID);
  }

  dispose(): void {
    for (const connection of this.connections.values()) connection.dispose();
    this.connections.clear();
    this.profilesChanged.dispose();
    this.stateChanged.dispose();
    this.clientChanged.dispose();
    this.anyClientChanged.dispose();
    this.paceChanged.dispose();
    this.callFinished.dispose();
    this.unfilledEmitter.dispose();
    this.longWaits.dispose();
  }
}
