// UI adapter: where chat context comes from in the editor: the active file, the selection, the open editors, any
// workspace file (a quick pick that leaves out files.exclude and .gitignore matches), the current file's problems,
// and files dropped from the Explorer. Binary and oversized files, devices and other special files are refused with
// a message; a file whose real path is outside the workspace, or whose name or content looks like a credential, is
// attached only when the user confirms. A path the webview names (a drop) is untrusted: nothing outside the
// workspace is read before the user says yes in the host's own dialog.
import * as vscode from 'vscode';
import type { ContextSource } from '../../../chatProtocol/messages';
import { CONTEXT_CHOICES } from '../../../chatProtocol/contextChoices';
import { ATTACHMENT_LIMITS, type Attachment, type TextAttachment, type TextSource } from '../../../chatProtocol/attachments';
import { consentQuestion, factsOf, insideFolders, realFolders, samePath, type FileFacts } from '../../../util/fileConsent';
import { checkTextFile, formatSize, lineCount, sizeRefusal } from '../../core/context/fileCheck';
import { isTranscribable, MAX_TRANSCRIBE_BYTES } from '../../../util/audioFiles';
import { notAFileRefusal, readBounded, resolveFile } from '../../../util/fileRead';
import { IgnoreRules } from '../../core/context/gitignore';
import { checkImage, IMAGE_EXTENSIONS, imageSizeRefusal } from '../../core/context/images';
import { editorLineCount, parseLineRange, sliceLines, type LineRange } from '../../core/context/lineRange';
import type { InputOptions, UserInterface } from '../../../ui/vscode/userInterface';
import { isSecretPath, secretInContent } from '../../../util/credentials';

export interface WorkspaceContextOptions {
  /** The editor the user worked in last (the chat panel has focus when its button is pressed). */
  editor(): vscode.TextEditor | undefined;
  maxBytes(): number;
  newId(): string;
  /** The user seam: the menu, the pickers, the questions and the warnings. */
  ui: Pick<UserInterface, 'ask' | 'notify' | 'input' | 'pickItem' | 'pickMany'>;
}

const MAX_PICKER_FILES = 10_000;
/** Lines of a File… reads files up to this size (a range of a large log is the point of it); the range itself must fit the attachment limit. */
const MAX_LINES_SOURCE_BYTES = 50 * 1024 * 1024;
/** A .gitignore larger than this hides nothing (git's own templates are a few KB). */
const MAX_GITIGNORE_BYTES = 256 * 1024;

/** A file read for attaching: its bytes, what is known about it, and whether the user already said yes to it. */
interface ReadFile {
  bytes: Uint8Array;
  facts: FileFacts;
  confirmed: boolean;
}

/** Text to attach, with what the consent question needs. */
interface TextSourceFile {
  path: string;
  language: string;
  text: string;
  facts: FileFacts;
  confirmed: boolean;
}

type FileItem = vscode.QuickPickItem & { uri: vscode.Uri };

/** The two questions Lines of a File… asks. */
export interface LinesQuestions {
  file(items: readonly FileItem[]): Thenable<FileItem | undefined>;
  range(options: InputOptions): Thenable<string | undefined>;
}
const ATTACH_ANYWAY = 'Attach Anyway';

async function askModal(ui: WorkspaceContextOptions['ui'], message: string): Promise<boolean> {
  try {
    return (await ui.ask('warning', message, undefined, ATTACH_ANYWAY)) === ATTACH_ANYWAY;
  } catch {
    // A question VS Code could not show was not answered yes.
    return false;
  }
}

/** The language VS Code gives a file ('' when it cannot open it as text). */
function languageOf(uri: vscode.Uri): Promise<string> {
  return Promise.resolve(vscode.workspace.openTextDocument(uri)).then((document) => document.languageId, () => '');
}

const MENU: ReadonlyArray<{ label: string; detail: string; id: ContextSource }> = Object.entries(CONTEXT_CHOICES).map(([source, choice]) => ({
  label: `$(${choice.icon}) ${choice.title}`,
  detail: choice.detail,
  id: source as ContextSource,
}));

export class WorkspaceContextProvider {
  constructor(private readonly options: WorkspaceContextOptions) {}

  warn(message: string): void {
    void this.options.ui.notify('warning', message);
  }

  async collect(source: ContextSource): Promise<Attachment[]> {
    switch (source) {
      case 'menu': {
        const picked = await this.options.ui.pickItem(MENU, { title: 'Add Context', placeHolder: 'What should the model see with your next message?', matchOnDescription: false });
        const source = MENU.find((item) => item.id === picked)?.id;
        return source ? this.collect(source) : [];
      }
      case 'activeFile':
        return this.withEditor((editor) => this.fromDocument(editor.document, 'file'));
      case 'selection':
        return this.withEditor((editor) => this.fromSelections(editor));
      case 'lines':
        return this.pickLines();
      case 'openEditors':
        return this.fromOpenEditors();
      case 'workspaceFile':
        return this.pickWorkspaceFiles();
      case 'problems':
        return this.withEditor((editor) => this.fromProblems(editor.document));
    }
  }

  async fromUris(uris: readonly string[]): Promise<Attachment[]> {
    const out: Attachment[] = [];
    for (const raw of uris) {
      let uri: vscode.Uri;
      try {
        uri = vscode.Uri.parse(raw, true);
      } catch {
        this.warn(`Cannot attach ${raw.slice(0, 200)}: not a file address.`);
        continue;
      }
      out.push(...(await this.fromUri(uri)));
    }
    return out;
  }

  private async withEditor(from: (editor: vscode.TextEditor) => Promise<Attachment[]>): Promise<Attachment[]> {
    const editor = this.options.editor();
    if (!editor) {
      this.warn('Open a file in an editor first.');
      return [];
    }
    return from(editor);
  }

  private displayPath(document: vscode.TextDocument | vscode.Uri): string {
    const uri = 'uri' in document ? document.uri : document;
    if ('isUntitled' in document && document.isUntitled) return document.fileName;
    return vscode.workspace.asRelativePath(uri, false);
  }

  private textAttachment(source: TextSource, path: string, language: string, text: string, startLine: number): TextAttachment {
    const lines = lineCount(text);
    return { kind: 'text', id: this.options.newId(), source, path, language, startLine, endLine: startLine + lines - 1, totalLines: lines, text };
  }

  private tooLarge(path: string, text: string): boolean {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes <= this.options.maxBytes()) return false;
    this.warn(sizeRefusal(path, bytes, this.options.maxBytes()));
    return true;
  }

  /** Which file and which lines, for Lines of a File…; replaceable so tests can answer. */
  linesQuestions: LinesQuestions = {
    file: async (items) => {
      const picked = await this.options.ui.pickItem(
        items.map((item) => ({ label: item.label, description: item.description, id: item.uri.toString() })),
        { title: 'Attach Lines of a File', placeHolder: 'Which file? Type to search the workspace' },
      );
      return items.find((item) => item.uri.toString() === picked);
    },
    range: (options) => this.options.ui.input({ ...options, ignoreFocusOut: false }),
  };

  /** Asks for the yes a file needs (outside the workspace, a credential by name or content): a modal; replaceable so tests can answer. */
  askAttachSecrets: (message: string) => Promise<boolean> = (message) => askModal(this.options.ui, message);

  /** Asks the consent question the facts (and the text about to be sent) call for; true when none is needed. */
  private async confirm(facts: FileFacts, text?: string): Promise<boolean> {
    const question = consentQuestion(facts, text === undefined ? undefined : secretInContent(text));
    return question === undefined || this.askAttachSecrets(question);
  }

  /** The real paths of the workspace's folders on disk. */
  private workspaceRoots(): Promise<string[]> {
    return realFolders((vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath));
  }

  /**
   * What is known about an open document. The user opened it, so only a link out of the workspace counts as outside
   * (its name says one place, its content comes from another).
   */
  private async documentFacts(document: vscode.TextDocument): Promise<FileFacts> {
    const display = this.displayPath(document);
    const plain: FileFacts = { display, linked: false, outside: false, secretName: isSecretPath(display) };
    if (document.isUntitled || document.uri.scheme !== 'file') return plain;
    const named = document.uri.fsPath;
    const realPath = await resolveFile(named).then((r) => r.realPath, () => named);
    const roots = await this.workspaceRoots();
    const facts = factsOf(display, named, realPath, roots);
    const namedInside = insideFolders(named, [...roots, ...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath)]) !== undefined;
    return { ...facts, outside: facts.outside && facts.linked && namedInside };
  }

  private async fromDocument(document: vscode.TextDocument, source: TextSource): Promise<Attachment[]> {
    const path = this.displayPath(document);
    const text = document.getText();
    if (this.tooLarge(path, text) || !(await this.confirm(await this.documentFacts(document), text))) return [];
    return [this.textAttachment(source, path, document.languageId, text, 1)];
  }

  private async fromSelections(editor: vscode.TextEditor): Promise<Attachment[]> {
    const selections = editor.selections.filter((s) => !s.isEmpty);
    if (selections.length === 0) {
      this.warn('Select some text in the editor first.');
      return [];
    }
    const document = editor.document;
    const path = this.displayPath(document);
    const selected = selections.map((selection) => document.getText(selection)).join('\n');
    if (!(await this.confirm(await this.documentFacts(document), selected))) return [];
    const out: Attachment[] = [];
    for (const selection of selections) {
      const text = document.getText(selection);
      if (!this.tooLarge(path, text)) out.push(this.textAttachment('selection', path, document.languageId, text, selection.start.line + 1));
    }
    return out;
  }

  /** Lines of a File…: the file (the editor used last is offered first), then the lines (its selection, if any). */
  private async pickLines(): Promise<Attachment[]> {
    const editor = this.options.editor();
    const current = editor ? [{ label: `$(file) ${this.displayPath(editor.document).split('/').pop()}`, description: `${this.displayPath(editor.document)} · the editor you used last`, uri: editor.document.uri }] : [];
    const files = vscode.workspace.workspaceFolders?.length ? await this.listWorkspaceFiles() : [];
    const items = [...current, ...files.filter((f) => f.uri.toString() !== editor?.document.uri.toString()).map(({ uri, path }) => ({ label: path.split('/').pop() ?? path, description: path, uri }))];
    if (items.length === 0) return this.refuse('Open a file or a folder to attach lines from.');
    const picked = await this.linesQuestions.file(items);
    if (!picked) return [];
    const source = await this.linesSource(picked.uri, editor);
    if (!source) return [];
    const total = editorLineCount(source.text);
    const selected = editor && editor.document.uri.toString() === picked.uri.toString() && !editor.selection.isEmpty ? editor.selection : undefined;
    const answer = await this.linesQuestions.range({
      title: `Attach Lines of ${source.path}`,
      prompt: `Lines from 1 to ${total}: 12-40, 12, or 12- for the rest of the file`,
      value: selected ? `${selected.start.line + 1}-${selected.end.character === 0 && selected.end.line > selected.start.line ? selected.end.line : selected.end.line + 1}` : `1-${total}`,
      validate: (text) => {
        const range = parseLineRange(text, total);
        return 'error' in range ? range.error : undefined;
      },
    });
    const range = answer === undefined ? undefined : parseLineRange(answer, total);
    if (!range || 'error' in range) return [];
    return this.fromLines(source, range);
  }

  /** The text of a file to take lines from: the open document (with unsaved edits) or the file, if it is text. */
  private async linesSource(uri: vscode.Uri, editor: vscode.TextEditor | undefined): Promise<TextSourceFile | undefined> {
    const open = editor?.document.uri.toString() === uri.toString() ? editor.document : vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return { path: this.displayPath(open), language: open.languageId, text: open.getText(), facts: await this.documentFacts(open), confirmed: false };
    const path = this.displayPath(uri);
    const file = await this.readFile(uri, path, MAX_LINES_SOURCE_BYTES, (size) => sizeRefusal(path, size, MAX_LINES_SOURCE_BYTES));
    if (!file) return undefined;
    const verdict = checkTextFile(path, file.bytes, MAX_LINES_SOURCE_BYTES);
    if (!verdict.ok) return void this.warn(verdict.reason);
    return { path, language: await languageOf(uri), text: verdict.text, facts: file.facts, confirmed: file.confirmed };
  }

  private async fromLines(source: TextSourceFile, range: LineRange): Promise<Attachment[]> {
    const text = sliceLines(source.text, range);
    if (this.tooLarge(source.path, text) || (!source.confirmed && !(await this.confirm(source.facts, text)))) return [];
    return [this.textAttachment('lines', source.path, source.language, text, range.start)];
  }

  private async fromOpenEditors(): Promise<Attachment[]> {
    const uris = vscode.window.tabGroups.all.flatMap((group) => group.tabs.flatMap((tab) => (tab.input instanceof vscode.TabInputText ? [tab.input.uri] : [])));
    const unique = [...new Map(uris.map((u) => [u.toString(), u])).values()];
    if (unique.length === 0) {
      this.warn('No files are open in editors.');
      return [];
    }
    const out: Attachment[] = [];
    for (const uri of unique) {
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      out.push(...(open ? await this.fromDocument(open, 'file') : await this.fromUri(uri)));
    }
    return out;
  }

  private async fromProblems(document: vscode.TextDocument): Promise<Attachment[]> {
    const path = this.displayPath(document);
    const diagnostics = vscode.languages.getDiagnostics(document.uri);
    if (diagnostics.length === 0) {
      this.warn(`No problems are reported for ${path}.`);
      return [];
    }
    const severity = ['error', 'warning', 'info', 'hint'];
    const text = diagnostics
      .map((d) => `${path}:${d.range.start.line + 1}:${d.range.start.character + 1} ${severity[d.severity] ?? 'problem'}: ${d.message.replace(/\s+/g, ' ')}${d.source ? ` (${d.source}${d.code !== undefined ? ` ${typeof d.code === 'object' ? String(d.code.value) : String(d.code)}` : ''})` : ''}`)
      .join('\n');
    return [{ ...this.textAttachment('problems', path, '', text, 1) }];
  }

  /** A file from the Explorer or the picker: images as images, audio for /transcribe, text checked for size, binary content and secrets. */
  private async fromUri(uri: vscode.Uri): Promise<Attachment[]> {
    const path = this.displayPath(uri);
    if (isTranscribable(uri.path)) return this.fromAudio(uri, path);
    const image = IMAGE_EXTENSIONS.test(uri.path);
    const maxBytes = image ? ATTACHMENT_LIMITS.imageBytes : this.options.maxBytes();
    const file = await this.readFile(uri, path, maxBytes, (size) => (image ? imageSizeRefusal(path, size) : sizeRefusal(path, size, maxBytes)));
    if (!file) return [];
    if (image) {
      const verdict = checkImage(path, file.bytes);
      if (!verdict.ok) return this.refuse(verdict.reason);
      if (!file.confirmed && !(await this.confirm(file.facts))) return [];
      return [{ kind: 'image', id: this.options.newId(), name: path.split('/').pop() || path, mimeType: verdict.mimeType, data: Buffer.from(file.bytes).toString('base64') }];
    }
    const verdict = checkTextFile(path, file.bytes, maxBytes);
    if (!verdict.ok) return this.refuse(verdict.reason);
    if (!file.confirmed && !(await this.confirm(file.facts, verdict.text))) return [];
    const language = await languageOf(uri);
    return [this.textAttachment('file', path, language, verdict.text, 1)];
  }

  /**
   * An audio file for /transcribe: not read now (it can be 25 MB), but resolved and asked about by the same rules as
   * any file, so /transcribe later reads only what the user agreed to.
   */
  private async fromAudio(uri: vscode.Uri, path: string): Promise<Attachment[]> {
    if (uri.scheme !== 'file') return this.refuse(`${path} is not a file on disk.`);
    try {
      const resolved = await resolveFile(uri.fsPath);
      const via = samePath(resolved.realPath, uri.fsPath) ? undefined : resolved.realPath;
      if (resolved.kind !== 'file') return this.refuse(notAFileRefusal(path, resolved.kind, via));
      if (resolved.size > MAX_TRANSCRIBE_BYTES) return this.refuse(`${path} is ${formatSize(resolved.size)}, over the ${formatSize(MAX_TRANSCRIBE_BYTES)} one transcription takes. Split or compress it first.`);
      if (!(await this.confirm(factsOf(path, uri.fsPath, resolved.realPath, await this.workspaceRoots())))) return [];
      return [{ kind: 'audio', id: this.options.newId(), name: path.split('/').pop() || path, path: resolved.realPath, bytes: resolved.size }];
    } catch (error) {
      return this.refuse(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * Reads a file for attaching, through the one bounded reader: the real path is resolved, anything but a regular
   * file is refused, and a file outside the workspace (or named like a credential) is read only after the user's
   * yes. Undefined when it is not attached (the user was told why, or said no).
   */
  private async readFile(uri: vscode.Uri, path: string, maxBytes: number, tooLarge: (size: number) => string): Promise<ReadFile | undefined> {
    if (uri.scheme !== 'file') return void this.warn(`${path} is not a file on disk; open it in an editor and attach the Active File instead.`);
    try {
      const resolved = await resolveFile(uri.fsPath);
      const via = samePath(resolved.realPath, uri.fsPath) ? undefined : resolved.realPath;
      if (resolved.kind !== 'file') return void this.warn(notAFileRefusal(path, resolved.kind, via));
      if (resolved.size > maxBytes) return void this.warn(tooLarge(resolved.size));
      const facts = factsOf(path, uri.fsPath, resolved.realPath, await this.workspaceRoots());
      const question = consentQuestion(facts);
      if (question !== undefined && !(await this.askAttachSecrets(question))) return undefined;
      const read = await readBounded(resolved.realPath, maxBytes);
      if (read.ok) return { bytes: read.bytes, facts, confirmed: question !== undefined };
      return void this.warn('kind' in read ? notAFileRefusal(path, read.kind, via) : tooLarge(read.atLeast));
    } catch (error) {
      return void this.warn(`Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private refuse(reason: string): Attachment[] {
    this.warn(reason);
    return [];
  }

  private async pickWorkspaceFiles(): Promise<Attachment[]> {
    if (!vscode.workspace.workspaceFolders?.length) {
      this.warn('Open a folder to pick files from the workspace.');
      return [];
    }
    const files = await this.listWorkspaceFiles();
    const items = files.map(({ uri, path }) => ({ label: path.split('/').pop() ?? path, description: path, id: uri.toString() }));
    const picked = await this.options.ui.pickMany(items, { title: 'Attach Workspace Files', placeHolder: 'Type to search; files ignored by files.exclude or .gitignore are not listed' });
    const out: Attachment[] = [];
    for (const id of picked ?? []) {
      const file = files.find((f) => f.uri.toString() === id);
      if (file) out.push(...(await this.fromUri(file.uri)));
    }
    return out;
  }

  /** The files the picker offers, by path: files.exclude (findFiles without an exclude applies it) and .gitignore left out. */
  async listWorkspaceFiles(): Promise<Array<{ uri: vscode.Uri; path: string }>> {
    const [files, ignoreFiles] = await Promise.all([vscode.workspace.findFiles('**/*', undefined, MAX_PICKER_FILES), vscode.workspace.findFiles('**/.gitignore', undefined, 1000)]);
    const rules = await this.ignoreRules(ignoreFiles);
    return files
      .map((uri) => ({ uri, path: vscode.workspace.asRelativePath(uri, true) }))
      .filter(({ uri }) => !rules.get(vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() ?? '')?.ignores(vscode.workspace.asRelativePath(uri, false)))
      .sort((a, b) => a.path.localeCompare(b.path));
  }

  /** The .gitignore rules of each workspace folder, shallow files first so deeper ones override. */
  private async ignoreRules(ignoreFiles: readonly vscode.Uri[]): Promise<Map<string, IgnoreRules>> {
    const byFolder = new Map<string, IgnoreRules>();
    const sorted = [...ignoreFiles].sort((a, b) => a.path.split('/').length - b.path.split('/').length);
    for (const uri of sorted) {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      if (!folder) continue;
      const key = folder.uri.toString();
      const rules = byFolder.get(key) ?? new IgnoreRules();
      byFolder.set(key, rules);
      const relative = vscode.workspace.asRelativePath(uri, false);
      const base = relative.includes('/') ? relative.slice(0, relative.lastIndexOf('/')) : '';
      try {
        // Through the bounded reader: a .gitignore linked to /dev/zero or a FIFO must not hang the listing.
        const read = uri.scheme === 'file' ? await readBounded((await resolveFile(uri.fsPath)).realPath, MAX_GITIGNORE_BYTES) : undefined;
        if (read?.ok) rules.add(base, new TextDecoder().decode(read.bytes));
      } catch {
        // An unreadable .gitignore hides nothing.
      }
    }
    return byFolder;
  }
}
