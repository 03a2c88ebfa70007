// UI adapter: today's and this month's spend of the active profile in the status bar; a click opens the dashboard.
// Its figures come from every window's records (read incrementally), refreshed after each record of this window,
// when the window gains focus (another window may have spent meanwhile) and when another profile becomes active.
import * as vscode from 'vscode';
import { formatCost } from '../core/summary';
import type { Spend } from '../core/usageRecorder';

export class UsageStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('modelGateway.usage', vscode.StatusBarAlignment.Right, 99);
  private refreshing: Promise<void> | undefined;
  private again = false;
  /** The gateway's own figures for the key (a line labelled as the gateway's), shown under the local ones. */
  private gatewayLine: string | undefined;

  constructor(
    private readonly spend: () => Promise<Spend>,
    command: string,
    private readonly onError: (error: unknown) => void,
  ) {
    this.item.name = 'Model Gateway Usage';
    this.item.command = command;
  }

  /** Reads the figures again (coalesced: a refresh asked for during one runs once after it). */
  refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = this.spend()
      .then((spend) => this.show(spend), this.onError)
      .finally(() => {
        this.refreshing = undefined;
        if (this.again) {
          this.again = false;
          void this.refresh();
        }
      });
    return this.refreshing;
  }

  /** Shows the gateway's own figures beside the local ones (undefined: it gave none). */
  setGatewayLine(line: string | undefined): void {
    if (this.gatewayLine === line) return;
    this.gatewayLine = line;
    void this.refresh();
  }

  setVisible(visible: boolean): void {
    if (visible) void this.refresh();
    else this.item.hide();
  }

  get text(): string {
    return this.item.text;
  }

  get tooltip(): string | vscode.MarkdownString | undefined {
    return this.item.tooltip;
  }

  private show({ today, month }: Spend): void {
    if (month.requests === 0) {
      this.item.text = '';
      this.item.hide();
      return;
    }
    this.item.text = `$(graph) ${formatCost(today)} today · ${formatCost(month)} month`;
    const unknown = month.unknownCost ? `\n\n${month.unknownCost} requests this month have no known price and are not in the sum.` : '';
    const gateway = this.gatewayLine ? `\n\n${this.gatewayLine}.` : '';
    this.item.tooltip = `Model Gateway spend (this machine's ledger): ${formatCost(today)} today (${today.requests} requests), ${formatCost(month)} this month (${month.requests} requests).${unknown}${gateway}\n\nClick to open the Usage dashboard.`;
    this.item.accessibilityInformation = { label: `Model Gateway spend: ${formatCost(today)} today, ${formatCost(month)} this month` };
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
