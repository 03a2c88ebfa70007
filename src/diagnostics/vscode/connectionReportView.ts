// UI adapter: the Test Connection report as a Markdown preview of a virtual, read-only document
// (ui/vscode/reportDocument.ts, registered at activation), never an unsaved file that asks to be saved on close. Each run
// replaces the content of the one report document, so an open preview refreshes in place. The preview's title bar
// offers Copy Report and Run Again while it is the active tab.
import * as vscode from 'vscode';
import type { ReportDocument } from '../../ui/vscode/reportDocument';
const ACTIVE_KEY = 'modelGateway.connectionReportActive';
const HAS_REPORT_KEY = 'modelGateway.hasConnectionReport';

export class ConnectionReportView implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly document: ReportDocument) {
    this.subscriptions = [
      vscode.window.tabGroups.onDidChangeTabs(() => this.updateActiveKey()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.updateActiveKey()),
    ];
  }

  /** The last report, as Markdown; undefined before the first run. */
  get text(): string | undefined {
    return this.document.text;
  }

  /** Replaces the report and shows it rendered; without the built-in Markdown extension, as read-only source. */
  async show(markdown: string): Promise<void> {
    void vscode.commands.executeCommand('setContext', HAS_REPORT_KEY, true);
    await this.document.show(markdown);
    this.updateActiveKey();
  }

  private updateActiveKey(): void {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    const input = tab?.input;
    const active =
      (input instanceof vscode.TabInputText && input.uri.scheme === this.document.uri.scheme) ||
      (input instanceof vscode.TabInputWebview && tab!.label.endsWith(this.document.kind.name));
    void vscode.commands.executeCommand('setContext', ACTIVE_KEY, active);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
