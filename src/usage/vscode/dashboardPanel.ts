// UI adapter: the Usage dashboard, one webview panel per window. The page asks for a summary (period, stacking,
// grouping); the host reads the ledger, sums it up (usage/core/summary.ts) and posts the figures only, never the
// records. Hosted by the webview host (USAGE_PAGE); messages are checked on both sides against the dashboard's
// protocol (dashboardProtocol.ts). Locked down: scripts by nonce, no network.
import type * as vscode from 'vscode';
import type { ProtocolPort } from '../../chatProtocol/webviewProtocol';
import { HostedPage, type PageDescriptor } from '../../ui/vscode/webviewHost';
import { USAGE_SHAPES, USAGE_VIEW_TYPE, type DashboardRequest, type DashboardUpdate } from '../core/dashboardProtocol';
import type { Ledger } from '../core/ledger';
import { periodStart, summarize, type GroupBy, type Period, type StackBy } from '../core/summary';

export interface DashboardDeps {
  extensionUri: vscode.Uri;
  ledger: Ledger;
  now(): number;
  /** The window's profile's monthly budget, with the profile's name (the dashboard sums every profile). */
  budget(): { amount: number; profile: string } | undefined;
  /** A profile's name now, by id (deleted ones kept for their jobs too): a renamed profile is one row. */
  profileName(id: string): string | undefined;
  /** The gateway's own figures for the window's key: the last line, and asking again (on opening the dashboard). */
  gatewayAccount?: { line(): string | undefined; refresh(): Promise<unknown> };
  onDidRecord: vscode.Event<unknown>;
  log: Pick<vscode.LogOutputChannel, 'warn' | 'error'>;
  /** The page's Export and Clear buttons run the commands (which ask where and whether). */
  exportUsage(): Thenable<unknown>;
  clearUsage(): Thenable<unknown>;
  openDamaged(): Thenable<unknown>;
}

/** The dashboard page: its bundle, from the built webview folder only. */
export const USAGE_PAGE: PageDescriptor = {
  viewType: USAGE_VIEW_TYPE,
  bundle: { scripts: ['webview/usage.js'], styles: ['webview/usage.css'] },
  distRoots: ['webview'],
  csp: { styles: 'root' },
};

export class UsageDashboard implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private port: ProtocolPort<DashboardRequest, DashboardUpdate> | undefined;
  private query: { period: Period; stackBy: StackBy; groupBy: GroupBy } = { period: '30d', stackBy: 'model', groupBy: 'model' };
  private readonly subscriptions: vscode.Disposable[] = [];
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** The last update posted (tests read the figures the page was sent). */
  lastUpdate: DashboardUpdate | undefined;

  constructor(private readonly deps: DashboardDeps) {
    this.subscriptions.push(deps.onDidRecord(() => this.scheduleRefresh()));
  }

  show(): vscode.WebviewPanel {
    if (this.panel) {
      this.panel.reveal();
      return this.panel;
    }
    const page = HostedPage.open(USAGE_PAGE, this.deps.extensionUri, { title: 'Model Gateway Usage' });
    page.render({ title: 'Model Gateway Usage', body: '<main id="app"></main>' });
    const { port, subscription } = page.connect('Usage dashboard', USAGE_SHAPES, (request) => this.receive(request), this.deps.log);
    const panel = page.panel;
    // The page's subscriptions go with the page: kept in the dashboard's list, each closed page would stay reachable.
    const closed = panel.onDidDispose(() => {
      this.panel = undefined;
      this.port = undefined;
      subscription.dispose();
      closed.dispose();
    });
    this.panel = panel;
    this.port = port;
    // Opening the dashboard is asking: the gateway's own figures are fetched now, and shown when they come.
    void this.deps.gatewayAccount?.refresh().then(() => this.refresh(), () => undefined);
    return panel;
  }

  private async receive(request: DashboardRequest): Promise<void> {
    switch (request.type) {
      case 'ready':
        return;
      case 'query':
        this.query = { period: request.period, stackBy: request.stackBy, groupBy: request.groupBy };
        return this.refresh();
      case 'export':
        await this.deps.exportUsage();
        return;
      case 'clear':
        await this.deps.clearUsage();
        return this.refresh();
      case 'openDamaged':
        await this.deps.openDamaged();
        return;
    }
  }

  private scheduleRefresh(): void {
    if (!this.panel) return;
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refresh(), 300);
  }

  /** Sums the ledger for the page's current query and posts it. */
  async refresh(): Promise<void> {
    const port = this.port;
    if (!port) return;
    let update: DashboardUpdate;
    try {
      const now = this.deps.now();
      const { records, damaged } = await this.deps.ledger.read(periodStart(this.query.period, now));
      const budget = this.deps.budget();
      const gateway = this.deps.gatewayAccount?.line();
      update = { type: 'summary', summary: summarize(records, { ...this.query, now, profileName: this.deps.profileName }), damaged: damaged.length, ...(budget && { budget: budget.amount, budgetOf: budget.profile }), ...(gateway !== undefined && { gateway }) };
    } catch (error) {
      update = { type: 'problem', message: `The usage ledger could not be read: ${error instanceof Error ? error.message : String(error)}` };
    }
    this.lastUpdate = update;
    port.send(update);
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    this.panel?.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
