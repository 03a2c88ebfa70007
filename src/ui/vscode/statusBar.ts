// UI adapter: one status bar item for the connection: no key, connected, unauthorized, rate limited (with a
// countdown), slowing down before a rate limit, or offline, and the active profile when there are several (the
// tooltip says when the workspace is bound to it). Clicking it opens a menu with the actions that fit the state,
// and the profile actions.
import * as vscode from 'vscode';
import type { ConnectionState } from '../../gateway/connection';
import type { GatewayConnections } from '../../gateway/connections';
import type { PaceNews } from '../../gateway/pacer';
import { SHARED_COMMANDS } from '../core/commandIds';

interface Look {
  text: string;
  tooltip: string;
  background?: vscode.ThemeColor;
}

/** Seconds until `at`, never below 0. */
function secondsTo(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** "slowing down: 3 requests left, resets in 40 s", while the gateway's budget is below a tenth. */
export function slowingText(pace: Extract<PaceNews, { kind: 'slowing' }>, now: number): string {
  return `slowing down: ${pace.left.toLocaleString('en-US')} ${pace.left === 1 ? pace.unit.slice(0, -1) : pace.unit} left, resets in ${secondsTo(pace.resetAt, now)} s`;
}

export function describeState(state: ConnectionState, now: number, pace?: PaceNews): Look {
  const host = 'origin' in state ? new URL(state.origin).host : '';
  if (pace?.kind === 'slowing' && (state.kind === 'connected' || state.kind === 'unknown')) {
    const text = slowingText(pace, now);
    return { text: `$(watch) Gateway: ${text}`, tooltip: `Model Gateway: ${host} is nearly at its rate limit, ${text}. Background work waits its turn; your requests go first.`, background: new vscode.ThemeColor('statusBarItem.warningBackground') };
  }
  switch (state.kind) {
    case 'no-url':
      return { text: '$(plug) Gateway: not set', tooltip: 'Model Gateway: no gateway URL is set. Click to set it.' };
    case 'no-key':
      return { text: '$(key) Gateway: no key', tooltip: `Model Gateway: no API key for ${state.origin}. Click to set one.`, background: new vscode.ThemeColor('statusBarItem.warningBackground') };
    case 'unknown':
      return { text: '$(cloud) Gateway', tooltip: `Model Gateway: ${state.origin} (not contacted yet)` };
    case 'connected':
      return { text: '$(cloud) Gateway', tooltip: `Model Gateway: connected to ${state.origin}` };
    case 'unauthorized':
      return { text: '$(error) Gateway: unauthorized', tooltip: `Model Gateway: ${state.message}`, background: new vscode.ThemeColor('statusBarItem.errorBackground') };
    case 'forbidden':
      return { text: '$(error) Gateway: forbidden', tooltip: `Model Gateway: ${state.message}`, background: new vscode.ThemeColor('statusBarItem.errorBackground') };
    case 'rate-limited': {
      const seconds = secondsTo(state.until, now);
      return { text: `$(watch) Gateway: rate limited ${seconds}s`, tooltip: `Model Gateway: rate limited by ${host}; requests resume in ${seconds} s.`, background: new vscode.ThemeColor('statusBarItem.warningBackground') };
    }
    case 'offline':
      return { text: '$(debug-disconnect) Gateway: offline', tooltip: `Model Gateway: cannot reach ${state.origin}. ${state.message}`, background: new vscode.ThemeColor('statusBarItem.errorBackground') };
  }
}

interface MenuItem extends vscode.QuickPickItem {
  command: string;
}

export function menuFor(state: ConnectionState): MenuItem[] {
  const item = (label: string, command: string, detail?: string): MenuItem => ({ label, command, detail });
  const profiles = [item('$(arrow-swap) Switch Profile…', SHARED_COMMANDS.profilesSwitch), item('$(account) Profiles…', SHARED_COMMANDS.profilesMenu)];
  const common = [item('$(comment-discussion) New Chat', SHARED_COMMANDS.newChat), item('$(list-unordered) List Models', SHARED_COMMANDS.listModels), item('$(output) Open Logs', SHARED_COMMANDS.openLogs), ...profiles];
  switch (state.kind) {
    case 'no-url':
      return [item('$(globe) Set Gateway URL', SHARED_COMMANDS.setBaseUrl), item('$(output) Open Logs', SHARED_COMMANDS.openLogs), ...profiles];
    case 'no-key':
      return [item('$(key) Set API Key', SHARED_COMMANDS.setApiKey), item('$(globe) Change Gateway URL', SHARED_COMMANDS.setBaseUrl), item('$(output) Open Logs', SHARED_COMMANDS.openLogs), ...profiles];
    case 'unauthorized':
    case 'forbidden':
      return [item('$(key) Replace API Key', SHARED_COMMANDS.rotateApiKey), item('$(pulse) Test Connection', SHARED_COMMANDS.testConnection), ...common];
    case 'offline':
      return [item('$(pulse) Test Connection', SHARED_COMMANDS.testConnection), item('$(globe) Change Gateway URL', SHARED_COMMANDS.setBaseUrl), ...common];
    default:
      return [...common, item('$(pulse) Test Connection', SHARED_COMMANDS.testConnection), item('$(key) Replace API Key', SHARED_COMMANDS.rotateApiKey), item('$(trash) Clear API Key', SHARED_COMMANDS.clearApiKey)];
  }
}

export class ConnectionStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('modelGateway.status', vscode.StatusBarAlignment.Right, 100);
  private countdown: ReturnType<typeof setInterval> | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly connection: GatewayConnections) {
    this.item.name = 'Model Gateway';
    this.item.command = SHARED_COMMANDS.showStatusMenu;
    const subscriptions = [
      connection.onDidChangeState(() => this.render()),
      connection.onDidChangePace(() => this.render()),
      connection.onDidChangeProfiles(() => this.render()),
    ];
    this.subscription = new vscode.Disposable(() => subscriptions.forEach((s) => s.dispose()));
    this.render();
    this.item.show();
  }

  /** The text shown now; read by tests. */
  get text(): string {
    return this.item.text;
  }

  async showMenu(): Promise<void> {
    const picked = await vscode.window.showQuickPick(menuFor(this.connection.state), { title: `Model Gateway — ${this.item.tooltip}`, placeHolder: 'Choose an action' });
    if (picked) await vscode.commands.executeCommand(picked.command);
  }

  private render(): void {
    const state = this.connection.state;
    const pace = this.connection.pace;
    const look = describeState(state, Date.now(), pace);
    // The active profile when there are several, and whether this workspace is bound to it.
    const { name, id } = this.connection.active;
    const bound = this.connection.workspaceBinding === id ? ' (bound to this workspace)' : '';
    const named = this.connection.profiles.length > 1 || bound;
    this.item.text = named ? `${look.text} · ${name}` : look.text;
    this.item.tooltip = look.tooltip = named ? `Profile: ${name}${bound}. ${look.tooltip}` : look.tooltip;
    this.item.backgroundColor = look.background;
    this.item.accessibilityInformation = { label: look.tooltip };
    if ((state.kind === 'rate-limited' && state.until > Date.now()) || pace?.kind === 'slowing') this.startCountdown();
    else this.stopCountdown();
  }

  private startCountdown(): void {
    if (this.countdown) return;
    // Ticks only while rate limited or slowing down, to count down; the pacer itself ends either when its time is up.
    this.countdown = setInterval(() => this.render(), 1000);
  }

  private stopCountdown(): void {
    if (this.countdown) clearInterval(this.countdown);
    this.countdown = undefined;
  }

  dispose(): void {
    this.stopCountdown();
    this.subscription.dispose();
    this.item.dispose();
  }
}
