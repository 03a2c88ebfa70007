// UI adapter: the Test Connection report's virtual, read-only document (model-gateway-report:), registered at
// activation: VS Code restores a report tab after a reload and asks for its text before Test Connection (a first-use
// file) has run. The report is kept in memory only, so until a run in this window the document says how to run one;
// Test Connection's view (connectionReportView.ts) writes each run's report here.
import * as vscode from 'vscode';

const SCHEME = 'model-gateway-report';
export const REPORT_NAME = 'Model Gateway Connection Test.md';

export class ReportDocument implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** The last report of this window, as Markdown; undefined before the first run. */
  text: string | undefined;
  readonly uri = vscode.Uri.from({ scheme: SCHEME, path: `/${REPORT_NAME}` });
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);

  provideTextDocumentContent(): string {
    // Reports live in memory: a tab restored after a reload (or opened before any run) gets this.
    return this.text ?? '# Model Gateway: connection test\n\nNo report in this window (one from before a reload is not kept). Run "Model Gateway: Test Connection".\n';
  }

  /** Replaces the report; an open preview refreshes in place. */
  set(markdown: string): void {
    this.text = markdown;
    this.changed.fire(this.uri);
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
