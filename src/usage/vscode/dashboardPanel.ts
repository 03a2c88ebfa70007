// UI adapter: the Usage dashboard, one webview panel per window. The page asks for a summary (period, stacking,
// grouping); the host reads the ledger, sums it up (usage/core/summary.ts) and posts the figures only, never the
// records. Messages are checked on both sides (dashboardProtocol.ts). Locked down: scripts by nonce, no network.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { htmlPage } from '../../util/html';
import { parseDashboardRequest, usageCsp, USAGE_VIEW_TYPE, type DashboardRequest, type DashboardUpdate } from '../core/dashboardProtocol';
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
  onDidRecord: vscode.Event<unknown>;
  log: Pick<vscode.LogOutputChannel, 'warn'>;
  /** The page's Export and Clear buttons run the commands (which ask where and whether). */
  exportUsage(): Thenable<unknown>;
  clearUsage(): Thenable<unknown>;
  openDamaged(): Thenable<unknown>;
}


export class UsageDashboard implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
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
    const root = vscode.Uri.joinPath(this.deps.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(USAGE_VIEW_TYPE, 'Model Gateway Usage', vscode.ViewColumn.Active, {
      enableScripts: true,
      enableCommandUris: false,
      enableForms: false,
      localResourceRoots: [root],
      retainContextWhenHidden: false,
    });
    const nonce = randomBytes(18).toString('base64');
    const asset = (name: string) => panel.webview.asWebviewUri(vscode.Uri.joinPath(root, name)).toString();
    panel.webview.html = htmlPage({
      title: 'Model Gateway Usage',
      csp: usageCsp(nonce, panel.webview.cspSource),
      nonce,
      stylesheets: [asset('usage.css')],
      scripts: [asset('usage.js')],
      body: '<main id="app"></main>',
    });
    panel.webview.onDidReceiveMessage((message: unknown) => void this.receive(message), undefined, this.subscriptions);
    panel.onDidDispose(() => (this.panel = undefined), undefined, this.subscriptions);
    this.panel = panel;
    return panel;
  }

  private async receive(message: unknown): Promise<void> {
    const request: DashboardRequest | undefined = parseDashboardRequest(message);
    if (!request) {
      this.deps.log.warn('Usage dashboard: a message of no known shape was dropped.');
      return;
    }
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
    const panel = this.panel;
    if (!panel) return;
    let update: DashboardUpdate;
    try {
      const now = this.deps.now();
      const { records, damaged } = await this.deps.ledger.read(periodStart(this.query.period, now));
      const budget = this.deps.budget();
      update = { type: 'summary', summary: summarize(records, { ...this.query, now, profileName: this.deps.profileName }), damaged: damaged.length, ...(budget && { budget: budget.amount, budgetOf: budget.profile }) };
    } catch (error) {
      update = { type: 'problem', message: `The usage ledger could not be read: ${error instanceof Error ? error.message : String(error)}` };
    }
    this.lastUpdate = update;
    await panel.webview.postMessage(update);
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    this.panel?.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
