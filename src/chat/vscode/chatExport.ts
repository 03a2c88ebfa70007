// UI adapter: Export Chat: writes a session as Markdown to a file the user picks (or the command's target), with
// each media turn linked to its kept file, else to the gateway's link.
import * as vscode from 'vscode';
import type { ChatSession, MediaTurn } from '../../chatProtocol/session';
import type { Clock } from '../../util/clock';
import { sessionMarkdown } from '../core/markdownText';
import type { ChatMediaPorts } from '../core/hub/mediaHub';

export class ChatExporter {
  constructor(private readonly deps: { clock: Clock; media?: ChatMediaPorts }) {}

  /** Exports the chat shown in `panel` (the active one), to `target` or where the user picks. */
  async exportChat(panel: { controller: { session: Readonly<ChatSession> } } | undefined, target?: unknown): Promise<vscode.Uri | undefined> {
    if (!panel) {
      void vscode.window.showInformationMessage('Open a chat to export it.');
      return undefined;
    }
    return this.exportSession(panel.controller.session, target instanceof vscode.Uri ? target : undefined);
  }

  /** Writes `session` to `target`, else to where the user picks (and then offers to open it). */
  async exportSession(session: Readonly<ChatSession>, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const uri = target ?? (await vscode.window.showSaveDialog({ defaultUri: defaultExportUri(session.title), filters: { Markdown: ['md'] }, saveLabel: 'Export Chat' }));
    if (!uri) return undefined;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(sessionMarkdown(session as ChatSession, new Date(this.deps.clock.now()), (turn) => this.mediaLink(turn)), 'utf8'));
    if (!target) {
      void vscode.window.showInformationMessage(`Chat exported to ${vscode.workspace.asRelativePath(uri)}.`, 'Open').then((choice) => {
        if (choice === 'Open') void vscode.window.showTextDocument(uri);
      });
    }
    return uri;
  }

  /** A media turn's link in an export: the kept file, else the gateway's link. */
  private mediaLink(turn: MediaTurn): string | undefined {
    const file = turn.entryId && turn.fileName ? this.deps.media?.media.keptFile(turn.entryId, turn.fileName) : undefined;
    return file ? vscode.Uri.file(file.path).toString() : turn.url;
  }
}

/** `<workspace>/<slug of the title>.md`, or none without a workspace folder. */
function defaultExportUri(title: string): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) return undefined;
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'chat';
  return vscode.Uri.joinPath(folder, `${slug}.md`);
}
