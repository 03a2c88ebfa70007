// UI adapter: the Diagnose Models report as a Markdown preview of a virtual, read-only document
// (model-gateway-models:), never an unsaved file that asks to be saved on close. Registered on first use; each run
// replaces the content of the one document, so an open preview refreshes in place.
import * as vscode from 'vscode';

const SCHEME = 'model-gateway-models';
export const MODEL_REPORT_URI = vscode.Uri.from({ scheme: SCHEME, path: '/Model Gateway Models.md' });

export class ModelReportView implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private markdown = '# Model Gateway: models\n\nRun "Model Gateway: Diagnose Models".\n';
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);

  provideTextDocumentContent(): string {
    return this.markdown;
  }

  /** Replaces the report and shows it rendered; without the built-in Markdown extension, as read-only source. */
  async show(markdown: string): Promise<void> {
    this.markdown = markdown;
    this.changed.fire(MODEL_REPORT_URI);
    try {
      await vscode.commands.executeCommand('markdown.showPreview', MODEL_REPORT_URI);
    } catch {
      await vscode.window.showTextDocument(MODEL_REPORT_URI, { preview: true });
    }
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
