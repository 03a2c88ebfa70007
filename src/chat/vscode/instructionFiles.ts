// UI adapter: one chat's view of the workspace's instruction files and prompt files. Reads them (bounded, links
// resolved, only inside the workspace), decides which apply to the attached and active files, tells the chat view
// (the chip, the prompt slash commands), opens a file from the chip, and turns them off or on for the chat. They are
// sent as a system message. In Restricted Mode (an untrusted workspace) they are not read at all, neither
// instruction files nor prompt files: a repository's text decides nothing (no glob is matched, no command offered)
// until the user trusts the workspace.
import { join } from 'node:path';
import * as vscode from 'vscode';
import {
  ALWAYS_FILES,
  MAX_FOLDER_FILES,
  applicable,
  frontMatter,
  instructionsMessage,
  MAX_INSTRUCTION_BYTES,
  PROMPT_SUFFIX,
  PROMPTS_FOLDER,
  promptCommandName,
  SCOPED_FOLDER,
  SCOPED_SUFFIX,
  type InstructionFile,
  type ReadInstruction,
} from '../core/instructions';
import { insideFolders, realFolders } from '../../util/fileConsent';
import { listFolder, readBounded, resolveFile } from '../../util/fileRead';
import { looksBinary } from '../core/context/fileCheck';
import type { InstructionsAction, InstructionsState, PromptCommand } from '../../chatProtocol/instructions';
import type { Attachment } from '../../chatProtocol/attachments';
import type { Turn } from '../../chatProtocol/session';
import type { UserInterface } from '../../ui/vscode/userInterface';

export interface PanelInstructionsDeps {
  post(state: InstructionsState): void;
  /** The attachments waiting to go with the next message. */
  pending(): readonly Attachment[];
  /** The turns so far (their attachments are files in play too). */
  turns(): readonly Turn[];
  editor(): vscode.TextEditor | undefined;
  /** Opens an instruction file from the chip. */
  ui: Pick<UserInterface, 'showEditor'>;
}

interface Folder {
  path: string;
  /** Prefix of labels in a multi-root workspace. */
  prefix: string;
}

type Read = { ok: true; text: string } | { ok: false; problem: string } | undefined;

export class PanelInstructions implements vscode.Disposable {
  private enabled = vscode.workspace.isTrusted;
  /** The user turned them on or off for this chat: trust granted later no longer decides. */
  private chosen = false;
  private files: InstructionFile[] = [];
  private readonly subscriptions: vscode.Disposable[];
  private refreshing: Promise<InstructionFile[]> | undefined;
  private again = false;
  /** The panel closed: a read still in flight tells nobody (its page is gone, and posting to it throws). */
  private disposed = false;

  constructor(private readonly deps: PanelInstructionsDeps) {
    // A glob string is matched against whole paths: `**/` lets it match in every workspace folder.
    const watcher = vscode.workspace.createFileSystemWatcher(`**/{AGENTS.md,.github/copilot-instructions.md,${SCOPED_FOLDER}/*${SCOPED_SUFFIX},${PROMPTS_FOLDER}/*${PROMPT_SUFFIX}}`);
    const refresh = () => void this.refresh();
    this.subscriptions = [
      watcher,
      watcher.onDidChange(refresh),
      watcher.onDidCreate(refresh),
      watcher.onDidDelete(refresh),
      vscode.window.onDidChangeActiveTextEditor((editor) => editor && refresh()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        if (!this.chosen) this.enabled = true;
        refresh();
      }),
    ];
  }

  /** The system message for a reply to `history`, or undefined when off or when nothing applies. Never throws. */
  async systemContent(history: readonly Turn[]): Promise<string | undefined> {
    if (!this.enabled || !vscode.workspace.isTrusted) return undefined;
    // Read now, with the turns about to be sent (a refresh in flight may have older ones).
    const files = await this.read(history).catch(() => this.files);
    return this.enabled ? instructionsMessage(files) : undefined;
  }

  async action(action: InstructionsAction, index: number): Promise<void> {
    if (action === 'toggle') {
      // Nothing to turn on in Restricted Mode: the files are not read (trusting the workspace turns them on).
      if (!vscode.workspace.isTrusted) return this.post();
      this.enabled = !this.enabled;
      this.chosen = true;
      this.post();
      return;
    }
    const file = this.files[index];
    if (file) await this.deps.ui.showEditor(vscode.Uri.file(file.location), { preview: false });
  }

  /** Reads the files again and tells the chat view; calls while one runs are folded into one more run. */
  refresh(history: readonly Turn[] = this.deps.turns()): Promise<InstructionFile[]> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    const run = this.read(history).finally(() => {
      this.refreshing = undefined;
      if (this.again && !this.disposed) {
        this.again = false;
        void this.refresh();
      }
    });
    this.refreshing = run;
    return run;
  }

  private async read(history: readonly Turn[]): Promise<InstructionFile[]> {
    if (!vscode.workspace.isTrusted) {
      this.files = [];
      this.post([], []);
      return [];
    }
    const folders = workspaceFolders();
    const roots = await realFolders(folders.map((f) => f.path));
    const found: ReadInstruction[] = [];
    const prompts: PromptCommand[] = [];
    for (const folder of folders) {
      for (const rel of ALWAYS_FILES) await this.collect(found, folder, rel, false, roots);
      for (const name of await listFolder(join(folder.path, SCOPED_FOLDER), SCOPED_SUFFIX, MAX_FOLDER_FILES)) await this.collect(found, folder, `${SCOPED_FOLDER}/${name}`, true, roots);
      for (const name of await listFolder(join(folder.path, PROMPTS_FOLDER), PROMPT_SUFFIX, MAX_FOLDER_FILES)) {
        const command = promptCommandName(name);
        const read = command && !prompts.some((p) => p.name === command) ? await readInstruction(join(folder.path, PROMPTS_FOLDER, name), roots) : undefined;
        if (!command || !read?.ok) continue;
        const { fields, body } = frontMatter(read.text);
        prompts.push({ name: command, description: fields.description || `${folder.prefix}${PROMPTS_FOLDER}/${name}`, text: body.trim() });
      }
    }
    const { files, problems } = applicable(found, this.filesInPlay(history));
    this.files = files;
    this.post(problems, prompts);
    return files;
  }

  private async collect(found: ReadInstruction[], folder: Folder, rel: string, scoped: boolean, roots: readonly string[]): Promise<void> {
    const location = join(folder.path, rel);
    const read = await readInstruction(location, roots);
    if (read) found.push({ label: `${folder.prefix}${rel}`, location, scoped, ...(read.ok ? { text: read.text } : { problem: read.problem }) });
  }

  private lastProblems: string[] = [];
  private lastPrompts: PromptCommand[] = [];

  private post(problems: string[] = this.lastProblems, prompts: PromptCommand[] = this.lastPrompts): void {
    this.lastProblems = problems;
    this.lastPrompts = prompts;
    if (this.disposed) return;
    const trusted = vscode.workspace.isTrusted;
    this.deps.post({ enabled: this.enabled && trusted, restricted: !trusted, files: this.files.map((f) => ({ label: f.label, tokens: f.tokens })), problems, prompts });
  }

  /** Workspace-relative paths of the files attached to the chat (sent or waiting) and of the active editor's. */
  private filesInPlay(history: readonly Turn[]): string[] {
    const paths = new Set<string>();
    for (const turn of history) if (turn.role === 'user') for (const a of turn.attachments ?? []) if (a.kind === 'text') paths.add(a.path);
    for (const a of this.deps.pending()) if (a.kind === 'text') paths.add(a.path);
    const document = this.deps.editor()?.document;
    if (document && !document.isUntitled) paths.add(vscode.workspace.asRelativePath(document.uri, false));
    return [...paths].map((p) => p.replace(/\\/g, '/'));
  }

  dispose(): void {
    this.disposed = true;
    for (const s of this.subscriptions) s.dispose();
  }
}

function workspaceFolders(): Folder[] {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  return folders.map((f) => ({ path: f.uri.fsPath, prefix: folders.length > 1 ? `${f.name}/` : '' }));
}


/** A file's text, read bounded with links resolved; undefined when it is not there, a problem when it cannot be used. */
async function readInstruction(path: string, roots: readonly string[]): Promise<Read> {
  const resolved = await resolveFile(path).catch(() => undefined);
  if (!resolved) return undefined;
  if (resolved.kind !== 'file') return { ok: false, problem: 'not a regular file; not read' };
  if (insideFolders(resolved.realPath, roots) === undefined) return { ok: false, problem: `links to ${resolved.realPath}, outside the workspace; not read` };
  const read = await readBounded(resolved.realPath, MAX_INSTRUCTION_BYTES).catch(() => undefined);
  if (!read || !read.ok) return { ok: false, problem: read && 'tooLarge' in read ? `over ${MAX_INSTRUCTION_BYTES / 1024} KB; not read` : 'could not be read' };
  if (looksBinary(read.bytes)) return { ok: false, problem: 'not text; not read' };
  return { ok: true, text: new TextDecoder('utf-8').decode(read.bytes) };
}
