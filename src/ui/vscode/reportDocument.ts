// UI adapter: a command's report (Test Connection's, Diagnose Models') as a virtual, read-only Markdown document,
// registered at activation: VS Code restores a report tab after a reload and asks for its text before the command
// (a first-use file) has run. A report is kept in memory only, so until a run in this window the document says how
// to run one; each run replaces the text of the one document, so an open preview refreshes in place.
import * as vscode from 'vscode';

export interface ReportKind {
  /** The URI scheme; a restored tab names it, so it never changes. */
  scheme: string;
  /** The document's file name, which the preview's tab shows. */
  name: string;
  /** What the report is, after "Model Gateway: " in its heading. */
  title: string;
  /** The command that makes one, after "Model Gateway: " in the palette. */
  command: string;
}

export class ReportDocument implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** The last report of this window, as Markdown; undefined before the first run. */
  text: string | undefined;
  readonly uri: vscode.Uri;
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;

  constructor(readonly kind: ReportKind) {
    this.uri = vscode.Uri.from({ scheme: kind.scheme, path: `/${kind.name}` });
    this.registration = vscode.workspace.registerTextDocumentContentProvider(kind.scheme, this);
  }

  provideTextDocumentContent(): string {
    // Reports live in memory: a tab restored after a reload (or opened before any run) gets this.
    return this.text ?? `# Model Gateway: ${this.kind.title}\n\nNo report in this window (one from before a reload is not kept). Run "Model Gateway: ${this.kind.command}".\n`;
  }

  /** Replaces the report and shows it rendered; without the built-in Markdown extension, as read-only source. */
  async show(markdown: string): Promise<void> {
    this.text = markdown;
    this.changed.fire(this.uri);
    try {
      await vscode.commands.executeCommand('markdown.showPreview', this.uri);
    } catch {
      await vscode.window.showTextDocument(this.uri, { preview: true });
    }
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
