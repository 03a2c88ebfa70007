// UI adapter: Download to Workspace. Streams a result into the workspace (the first folder, or the one picked; a
// save dialog without a workspace). The file's name, extension and size limit are chosen in download.ts.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { resultFetchOptionsFor, resultLinkOf, type VideoCommandContext } from './sharedCommands';
import { formatBytes } from '../../util/bytes';
import { DownloadError, downloadResult, resultFileStem } from '../core/download';
import { formatAge } from '../../util/age';
import { expiryNote, quoted } from '../core/jobPresentation';
import { urlExpiry } from '../core/resultLinks';

/** Where the file goes: straight into a local folder, or through a temporary file copied to a folder or a file. */
type Destination = { kind: 'local'; directory: string } | { kind: 'intoFolder'; folder: vscode.Uri } | { kind: 'replace'; file: vscode.Uri };

/** Resolves with the file written, or undefined when cancelled or failed (the reason is shown). */
export async function downloadResultToWorkspace(ctx: VideoCommandContext, argument?: unknown): Promise<vscode.Uri | undefined> {
  const link = resultLinkOf(ctx, argument);
  if (!link) return undefined;
  const { record, index } = link.target;
  const url = link.url;
  const expires = urlExpiry(url);
  if (expires !== undefined && expires <= Date.now()) {
    const anyway = 'Download Anyway';
    const detail = 'Signed result links stop working when they expire; the server will probably refuse it.';
    if ((await ctx.ui.ask('warning', `The result link expired ${formatAge(Date.now() - expires)}.`, detail, anyway)) !== anyway) return undefined;
  }
  const stem = resultFileStem(record.id, index);
  const destination = await chooseDestination(ctx, stem);
  if (!destination) return undefined;

  const fetchOptions = await resultFetchOptionsFor(ctx, record, url);
  const tempDir = destination.kind === 'local' ? undefined : await fs.mkdtemp(path.join(os.tmpdir(), 'model-gateway-'));
  try {
    const result = await ctx.ui.withProgress(
      `Downloading ${stem}`,
      (report, signal) => {
        let percent = 0;
        return downloadResult(url, destination.kind === 'local' ? destination.directory : tempDir!, stem, {
          ...fetchOptions,
          signal,
          maxBytes: ctx.settings().maxDownloadBytes,
          onProgress: (received, total) => {
            if (total === undefined || total === 0) return report(formatBytes(received));
            const now = Math.floor((received * 100) / total);
            if (now > percent) {
              report(`${formatBytes(received)} of ${formatBytes(total)}`, now - percent);
              percent = now;
            }
          },
        });
      },
      { cancellable: true },
    );
    const target = await place(result.file, destination);
    const shown = vscode.workspace.asRelativePath(target, false);
    void ctx.ui.notify('info', `Saved ${shown} (${formatBytes(result.bytes)}).${expiryNote(url, Date.now())}`, 'Open', 'Reveal in Explorer').then((choice) => {
      if (choice === 'Open') void ctx.ui.showFile(target, 'open');
      if (choice === 'Reveal in Explorer') void ctx.ui.showFile(target, 'reveal');
    });
    return target;
  } catch (error) {
    if (error instanceof DownloadError && error.code === 'aborted') {
      ctx.ui.status('Download cancelled.');
      return undefined;
    }
    const message = error instanceof Error ? error.message : String(error);
    const note = error instanceof DownloadError && error.code === 'http_status' ? expiryNote(url, Date.now()) : '';
    void ctx.ui.notify('error', `Could not download the video of ${quoted(record)}: ${message}${note}`);
    return undefined;
  } finally {
    if (tempDir) await fs.rm(tempDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function chooseDestination(ctx: VideoCommandContext, stem: string): Promise<Destination | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length > 0) {
    const folder = folders.length > 1 ? await ctx.ui.pickFolder('Save the video into which folder?') : folders[0];
    if (!folder) return undefined;
    return folder.uri.scheme === 'file' ? { kind: 'local', directory: folder.uri.fsPath } : { kind: 'intoFolder', folder: folder.uri };
  }
  // The dialog itself asks before replacing a file, so the copy may overwrite.
  const picked = await ctx.ui.saveDialog(vscode.Uri.file(path.join(os.homedir(), `${stem}.mp4`)), { Video: ['mp4', 'webm', 'mov'] }, 'Download');
  return picked && { kind: 'replace', file: picked };
}

/** Puts the downloaded file where it belongs; a copy into a folder takes a new name, never an existing file. */
async function place(file: string, destination: Destination): Promise<vscode.Uri> {
  const source = vscode.Uri.file(file);
  if (destination.kind === 'local') return source;
  if (destination.kind === 'replace') {
    await vscode.workspace.fs.copy(source, destination.file, { overwrite: true });
    return destination.file;
  }
  const name = path.basename(file);
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 1; n < 10_000; n++) {
    const target = vscode.Uri.joinPath(destination.folder, n === 1 ? name : `${stem} (${n})${ext}`);
    try {
      await vscode.workspace.fs.copy(source, target, { overwrite: false });
      return target;
    } catch (error) {
      if (!(error instanceof vscode.FileSystemError && error.code === 'FileExists')) throw error;
    }
  }
  throw new DownloadError('file', `Too many files named like ${name} in ${destination.folder.toString()}.`);
}
