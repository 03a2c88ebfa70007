// UI adapter: the Test Connection report as a Markdown preview of a virtual, read-only document
// (model-gateway-report:), never an unsaved file that asks to be saved on close. Each run replaces the content of
// the one report document, so an open preview refreshes in place. The preview's title bar offers Copy Report and
// Run Again while it is the active tab.
import * as vscode from 'vscode';

export const REPORT_SCHEME = 'model-gateway-report';
const REPORT_NAME = 'Model Gateway Connection Test.md';
export const REPORT_URI = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/${REPORT_NAME}` });
const ACTIVE_KEY = 'modelGateway.connectionReportActive';
const HAS_REPORT_KEY = 'modelGateway.hasConnectionReport';

export class ConnectionReportView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private markdown: string | undefined;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      this.changed,
      vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, this),
      vscode.window.tabGroups.onDidChangeTabs(() => this.updateActiveKey()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.updateActiveKey()),
    ];
  }

  /** The last report, as Markdown; undefined before the first run. */
  get text(): string | undefined {
    return this.markdown;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    if (uri.toString() !== REPORT_URI.toString()) return '';
    return this.markdown ?? '# Model Gateway: connection test\n\nNo test has run in this window yet. Run "Model Gateway: Test Connection".\n';
  }

  /** Replaces the report and shows it rendered; without the built-in Markdown extension, as read-only source. */
  async show(markdown: string): Promise<void> {
    this.markdown = markdown;
    this.changed.fire(REPORT_URI);
    void vscode.commands.executeCommand('setContext', HAS_REPORT_KEY, true);
    try {
      await vscode.commands.executeCommand('markdown.showPreview', REPORT_URI);
    } catch {
      await vscode.window.showTextDocument(REPORT_URI, { preview: true });
    }
    this.updateActiveKey();
  }

  private updateActiveKey(): void {
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    const input = tab?.input;
    const active =
      (input instanceof vscode.TabInputText && input.uri.scheme === REPORT_SCHEME) ||
      (input instanceof vscode.TabInputWebview && tab!.label.endsWith(REPORT_NAME));
    void vscode.commands.executeCommand('setContext', ACTIVE_KEY, active);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
