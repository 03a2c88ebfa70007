// UI adapter: the video commands: the Generate Video walk-through (or its argument form), and the actions on a job
// or a result in the Video Jobs view. Every job action looks the job up in the store by key, so a stale tree
// node can never act on data the store no longer has.
import type { ModelCatalog } from '../models/modelCatalog';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { GatewayConnection } from '../gateway/connection';
import { adviceFor, SET_API_KEY, type ErrorAdvice } from '../gateway/errorAdvice';
import type { VideoDefaults } from '../settings/settings';
import { showAdvice } from '../ui/notify';
import { checkResultUrl, DownloadError, downloadToFile, formatBytes, resultFileName, uniqueFilePath, urlExpiry } from './download';
import { isFinalRecord, type VideoJobRecord } from './jobRecord';
import type { JobStore } from './jobStore';
import { isSuccessStatus } from './status';
import { formatAge, formatDuration, shortPrompt, statusText, type VideoJobNode } from './videoJobsTree';
import type { VideoPreviewPanels } from './videoPreviewPanel';
import {
  answersFromArgument,
  buildVideoRequest,
  modelChoices,
  parseDuration,
  validatePrompt,
  validateSourceVideoUrl,
  VideoRequestError,
  type VideoAnswers,
} from './videoRequest';

/** What the commands show and open; replaced by a recorder in host tests. */
export interface CommandUi {
  openExternal(url: string): Thenable<boolean>;
  notify(kind: 'info' | 'warning' | 'error', message: string, ...actions: string[]): Thenable<string | undefined>;
  /** A modal question; resolves with the chosen action, undefined when dismissed. */
  ask(kind: 'warning' | 'error', message: string, detail: string, ...actions: string[]): Thenable<string | undefined>;
  copy(text: string): Thenable<void>;
  status(message: string): void;
  advise(advice: ErrorAdvice): void;
}

export const vscodeUi: CommandUi = {
  // A string reaches the opener unchanged (VS Code >= 1.62 accepts one at runtime); a Uri would re-encode the
  // signed query of the link and break its signature.
  openExternal: (url) => vscode.env.openExternal(url as unknown as vscode.Uri),
  notify: (kind, message, ...actions) => {
    if (kind === 'error') return vscode.window.showErrorMessage(message, ...actions);
    if (kind === 'warning') return vscode.window.showWarningMessage(message, ...actions);
    return vscode.window.showInformationMessage(message, ...actions);
  },
  ask: (kind, message, detail, ...actions) =>
    kind === 'error' ? vscode.window.showErrorMessage(message, { modal: true, detail }, ...actions) : vscode.window.showWarningMessage(message, { modal: true, detail }, ...actions),
  copy: (text) => vscode.env.clipboard.writeText(text),
  status: (message) => void vscode.window.setStatusBarMessage(message, 4000),
  advise: (advice) => void showAdvice(advice),
};

/** What the commands need from the view. */
export interface VideoJobsHost {
  readonly store: JobStore;
  /** The gateway whose jobs are shown (the configured one). */
  readonly origin: string | undefined;
  visibleJobs(): VideoJobRecord[];
  selection(): readonly VideoJobNode[];
  reveal(key: string): Promise<void>;
  refresh(): void;
  readonly onDidFinish: vscode.Event<VideoJobRecord>;
}

export interface VideoJobCommandsDeps {
  view: VideoJobsHost;
  connection: GatewayConnection;
  models: Pick<ModelCatalog, 'load'>;
  settings(): VideoDefaults;
  keyFor(origin: string): Promise<string | undefined>;
  previews: VideoPreviewPanels;
  ui: CommandUi;
}

interface Target {
  record: VideoJobRecord;
  index: number;
}

function isNode(value: unknown): value is VideoJobNode {
  const v = value as Partial<VideoJobNode> | undefined;
  return typeof v === 'object' && v !== null && typeof v.key === 'string' && (v.kind === 'job' || v.kind === 'result');
}

function quoted(record: VideoJobRecord, max = 50): string {
  return `“${shortPrompt(record.prompt, max)}”`;
}

function expiryNote(url: string, now: number): string {
  const expires = urlExpiry(url);
  if (expires === undefined) return '';
  if (expires <= now) return ` The result link expired ${formatAge(now - expires)}.`;
  return ` The result link stops working at ${new Date(expires).toLocaleString()} (in ${formatDuration(expires - now)}); the saved file stays.`;
}

export class VideoJobCommands implements vscode.Disposable {
  private readonly ui: CommandUi;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly deps: VideoJobCommandsDeps) {
    this.ui = deps.ui;
    this.subscription = deps.view.onDidFinish((record) => void this.announce(record));
  }

  handlers(): Record<string, (...args: any[]) => unknown> {
    return {
      'modelGateway.generateVideo': (argument?: unknown) => this.generateVideo(argument),
      'modelGateway.videos.refreshAll': () => this.refreshAll(),
      'modelGateway.videos.clearFinished': () => this.clearFinished(),
      'modelGateway.videos.refresh': (node?: unknown) => this.refresh(node),
      'modelGateway.videos.openResult': (node?: unknown) => this.openResult(node),
      'modelGateway.videos.preview': (node?: unknown) => this.preview(node),
      'modelGateway.videos.download': (node?: unknown) => this.download(node),
      'modelGateway.videos.copyUrl': (node?: unknown) => this.copyUrl(node),
      'modelGateway.videos.copyJobId': (node?: unknown) => this.copyJobId(node),
      'modelGateway.videos.resubmit': (node?: unknown) => this.resubmit(node),
      'modelGateway.videos.checkSubmission': (node?: unknown) => this.checkSubmission(node),
      'modelGateway.videos.showError': (node?: unknown) => this.showError(node),
      'modelGateway.videos.remove': (node?: unknown) => this.remove(node),
    };
  }

  private get store(): JobStore {
    return this.deps.view.store;
  }

  // ---- Generate Video ----------------------------------------------------------------------------------------

  /**
   * Without an argument: walks through prompt, model, resolution, duration and source video, then submits.
   * With `{ prompt, model?, resolution?, duration?, videoUrl? }`: submits at once and returns the job (rejects on
   * a bad argument or a refused submission).
   */
  async generateVideo(argument?: unknown): Promise<VideoJobRecord | undefined> {
    if (typeof argument === 'object' && argument !== null && 'prompt' in argument) {
      return this.submit(answersFromArgument(argument, this.deps.settings()), false);
    }
    if (!(await this.ensureConnection(true))) return undefined;
    const answers = await this.askAnswers();
    return answers ? this.submit(answers, true) : undefined;
  }

  /** True when a gateway URL and a key are set; otherwise says what is missing (or throws, when not interactive). */
  private async ensureConnection(interactive: boolean): Promise<boolean> {
    const access = await this.deps.connection.access();
    if (access.ok) return true;
    if (!interactive) throw new Error(access.advice.message);
    this.ui.advise(access.advice);
    return false;
  }

  private async submit(answers: VideoAnswers, interactive: boolean): Promise<VideoJobRecord | undefined> {
    if (!(await this.ensureConnection(interactive))) return undefined;
    const origin = this.deps.connection.origin!;
    let request;
    try {
      request = buildVideoRequest(answers, this.deps.settings());
    } catch (error) {
      if (!interactive || !(error instanceof VideoRequestError)) throw error;
      void this.ui.notify('error', error.message);
      return undefined;
    }
    const store = this.store;
    let record: VideoJobRecord;
    try {
      record = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Submitting the video job to ${new URL(origin).host}…` },
        () => store.submit(origin, request),
      );
    } catch (error) {
      this.ui.advise(adviceFor(error, { origin, model: request.model }));
      if (!interactive) throw error;
      return undefined;
    }
    if (interactive) void this.deps.view.reveal(record.key);
    if (record.localState === 'uncertain') void this.warnUncertain(record);
    return record;
  }

  private async warnUncertain(record: VideoJobRecord): Promise<void> {
    const check = 'Check Submission';
    const resubmit = 'Resubmit';
    const choice = await this.ui.notify(
      'warning',
      `Submission uncertain: the connection dropped after the video job ${quoted(record)} was sent, so the gateway may or may not have it. It is kept in the list and never resubmitted automatically.`,
      check,
      resubmit,
    );
    if (choice === check) await this.checkSubmission(record.key);
    if (choice === resubmit) await this.resubmit(record.key);
  }

  private async askAnswers(): Promise<VideoAnswers | undefined> {
    const settings = this.deps.settings();
    const title = (step: number) => `Generate Video (${step}/5)`;
    const prompt = await this.askPrompt(title(1));
    if (prompt === undefined) return undefined;
    const model = await this.askModel(title(2), settings.model);
    if (model === undefined) return undefined;
    const resolution = await this.askResolution(title(3), settings.resolutions);
    if (resolution === undefined) return undefined;
    const durationText = await vscode.window.showInputBox({
      title: title(4),
      prompt: 'Duration in seconds',
      value: String(settings.duration),
      ignoreFocusOut: true,
      validateInput: (value) => {
        const parsed = parseDuration(value);
        return 'error' in parsed ? parsed.error : undefined;
      },
    });
    if (durationText === undefined) return undefined;
    const parsed = parseDuration(durationText);
    if ('error' in parsed) return undefined;
    const videoUrl = await vscode.window.showInputBox({
      title: title(5),
      prompt: `Source video URL for the edit model (optional; sent as ${settings.sourceVideoField}). Leave empty to generate from the prompt alone.`,
      placeHolder: 'https://example.com/source.mp4',
      ignoreFocusOut: true,
      validateInput: validateSourceVideoUrl,
    });
    if (videoUrl === undefined) return undefined;
    return { prompt, model, resolution, duration: parsed.value, ...(videoUrl.trim() && { videoUrl: videoUrl.trim() }) };
  }

  /** One line in an input box, or (button, or a multi-line selection) several lines in an editor. */
  private async askPrompt(title: string): Promise<string | undefined> {
    const editor = vscode.window.activeTextEditor;
    const selected = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection).trim() : '';
    if (selected.includes('\n')) return this.askPromptInEditor(title, selected);
    const box = vscode.window.createInputBox();
    const editorButton: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Write a longer prompt, over several lines, in an editor' };
    box.title = title;
    box.prompt = 'Describe the video. For a prompt over several lines, use the editor button.';
    box.placeholder = 'A paper boat drifting down a rain-soaked street at dusk';
    box.value = selected;
    box.ignoreFocusOut = true;
    box.buttons = [editorButton];
    const answer = await new Promise<{ text: string; inEditor: boolean } | undefined>((resolve) => {
      box.onDidChangeValue((value) => (box.validationMessage = value.trim() === '' ? undefined : validatePrompt(value)));
      box.onDidAccept(() => {
        const problem = validatePrompt(box.value);
        if (problem) {
          box.validationMessage = problem;
          return;
        }
        resolve({ text: box.value.trim(), inEditor: false });
        box.hide();
      });
      box.onDidTriggerButton(() => {
        resolve({ text: box.value, inEditor: true });
        box.hide();
      });
      box.onDidHide(() => resolve(undefined));
      box.show();
    });
    box.dispose();
    if (!answer) return undefined;
    return answer.inEditor ? this.askPromptInEditor(title, answer.text) : answer.text;
  }

  private async askPromptInEditor(title: string, initial: string): Promise<string | undefined> {
    const document = await vscode.workspace.openTextDocument({ language: 'plaintext', content: initial });
    await vscode.window.showTextDocument(document, { preview: false });
    const use = 'Use as Prompt';
    for (;;) {
      const choice = await vscode.window.showInformationMessage(`${title}: write the prompt in the new editor, then choose "${use}".`, use, 'Cancel');
      const text = document.getText().trim();
      if (choice !== use) {
        await closeUntitled(document);
        return undefined;
      }
      const problem = validatePrompt(text);
      if (!problem) {
        await closeUntitled(document);
        return text;
      }
      void vscode.window.showErrorMessage(problem);
    }
  }

  private async askModel(title: string, defaultModel: string): Promise<string | undefined> {
    type Item = vscode.QuickPickItem & { other?: true };
    const other: Item = { label: '$(edit) Other model id…', other: true, alwaysShow: true };
    const itemsFor = (ids: string[]): Item[] => [...ids.map((id) => ({ label: id, description: id === defaultModel ? 'default' : undefined })), other];
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = title;
    pick.placeholder = 'Loading the gateway’s models…';
    pick.ignoreFocusOut = true;
    pick.busy = true;
    pick.items = itemsFor([defaultModel]);
    pick.activeItems = [pick.items[0]];
    // The list arrives while the picker is open; choosing before it does only stops listening (the shared
    // load goes on and fills the cache for the next time).
    const loading = new AbortController();
    void (async () => {
      try {
        const models = (await this.deps.models.load())?.models.map((m) => m.raw) ?? [];
        if (loading.signal.aborted) return;
        const { ids, recognised } = modelChoices(models, defaultModel);
        pick.items = itemsFor(ids);
        pick.activeItems = [pick.items[0]];
        pick.placeholder = recognised ? 'Choose the video model' : 'No listed model is marked as a video model; choose one';
      } catch (error) {
        if (!loading.signal.aborted) pick.placeholder = `Could not list the models (${adviceFor(error).message}); the default is offered`;
      } finally {
        if (!loading.signal.aborted) pick.busy = false;
      }
    })();
    const chosen = await new Promise<Item | undefined>((resolve) => {
      pick.onDidAccept(() => {
        resolve(pick.selectedItems[0] ?? pick.activeItems[0]);
        pick.hide();
      });
      pick.onDidHide(() => resolve(undefined));
      pick.show();
    });
    loading.abort();
    pick.dispose();
    if (!chosen) return undefined;
    if (!chosen.other) return chosen.label;
    const typed = await vscode.window.showInputBox({ title, prompt: 'Video model id', value: defaultModel, ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'Enter a model id.') });
    return typed?.trim() || undefined;
  }

  private async askResolution(title: string, resolutions: string[]): Promise<string | undefined> {
    const otherLabel = '$(edit) Other…';
    const picked = await vscode.window.showQuickPick([...resolutions, otherLabel], { title, placeHolder: 'Resolution', ignoreFocusOut: true });
    if (picked !== otherLabel) return picked;
    const typed = await vscode.window.showInputBox({ title, prompt: 'Resolution, as the gateway expects it', placeHolder: '1280x720', ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'Enter a resolution.') });
    return typed?.trim() || undefined;
  }

  // ---- job actions -------------------------------------------------------------------------------------------

  /** The job (and result index) a command acts on: its argument, else the view's selection. */
  private target(argument: unknown): Target | undefined {
    let key: string | undefined;
    let index = 0;
    const node = isNode(argument) ? argument : typeof argument === 'string' ? undefined : this.deps.view.selection()[0];
    if (typeof argument === 'string') key = argument;
    else if (node) {
      key = node.key;
      if (node.kind === 'result') index = node.index;
    }
    if (!key) {
      void this.ui.notify('info', 'Select a video job in the Video Jobs view first.');
      return undefined;
    }
    const record = this.store.get(key);
    if (!record) {
      void this.ui.notify('info', 'That video job is no longer in the list.');
      return undefined;
    }
    return { record, index };
  }

  /** The target's result link, if it has one that may be opened. */
  private resultLink(argument: unknown): { target: Target; url: string } | undefined {
    const target = this.target(argument);
    if (!target) return undefined;
    const url = target.record.resultUrls[target.index];
    if (url === undefined) {
      void this.ui.notify('info', `The video job ${quoted(target.record)} has no result yet (${statusText(target.record)}).`);
      return undefined;
    }
    const checked = checkResultUrl(url);
    if (!checked.ok) {
      void this.ui.notify('error', checked.reason);
      return undefined;
    }
    return { target, url };
  }

  async openResult(argument?: unknown): Promise<boolean> {
    const link = this.resultLink(argument);
    if (!link) return false;
    return this.ui.openExternal(link.url);
  }

  async preview(argument?: unknown): Promise<vscode.WebviewPanel | undefined> {
    const link = this.resultLink(argument);
    if (!link) return undefined;
    return this.deps.previews.show(link.target.record, link.target.index);
  }

  async copyUrl(argument?: unknown): Promise<boolean> {
    const target = this.target(argument);
    const url = target?.record.resultUrls[target.index];
    if (!target || url === undefined) return false;
    await this.ui.copy(url);
    this.ui.status('Copied the result link.');
    return true;
  }

  async copyJobId(argument?: unknown): Promise<boolean> {
    const target = this.target(argument);
    if (!target) return false;
    if (!target.record.id) {
      void this.ui.notify('info', 'The gateway has not given this job an id.');
      return false;
    }
    await this.ui.copy(target.record.id);
    this.ui.status(`Copied job id ${target.record.id}.`);
    return true;
  }

  /**
   * Streams the result into the workspace (the first folder, or the one picked; a save dialog without a workspace).
   * Resolves with the file written, or undefined when cancelled or failed (the error is shown).
   */
  async download(argument?: unknown): Promise<vscode.Uri | undefined> {
    const link = this.resultLink(argument);
    if (!link) return undefined;
    const { record, index } = link.target;
    const url = link.url;
    const expires = urlExpiry(url);
    if (expires !== undefined && expires <= Date.now()) {
      const anyway = 'Download Anyway';
      const choice = await this.ui.ask('warning', `The result link expired ${formatAge(Date.now() - expires)}.`, 'Signed result links stop working when they expire; the server will probably refuse it.', anyway);
      if (choice !== anyway) return undefined;
    }
    const name = resultFileName(url, record.id, index);
    const destination = await this.chooseDestination(name);
    if (!destination) return undefined;

    const credentialHeaders = await this.credentialHeadersFor(record, url);
    const tempDir = destination.local ? undefined : await fs.mkdtemp(path.join(os.tmpdir(), 'model-gateway-'));
    const localFile = destination.local ?? path.join(tempDir!, name);
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Downloading ${name}`, cancellable: true },
        (progress, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          let percent = 0;
          return downloadToFile(url, localFile, {
            signal: controller.signal,
            credentialOrigin: credentialHeaders ? record.origin : undefined,
            credentialHeaders,
            onProgress: (received, total) => {
              if (total === undefined || total === 0) return progress.report({ message: formatBytes(received) });
              const now = Math.floor((received * 100) / total);
              if (now > percent) {
                progress.report({ increment: now - percent, message: `${formatBytes(received)} of ${formatBytes(total)}` });
                percent = now;
              }
            },
          });
        },
      );
      const target = destination.uri;
      if (!destination.local || destination.replace) {
        await vscode.workspace.fs.copy(vscode.Uri.file(result.file), target, { overwrite: destination.replace });
      }
      const shown = vscode.workspace.asRelativePath(target, false);
      void this.ui.notify('info', `Saved ${shown} (${formatBytes(result.bytes)}).${expiryNote(url, Date.now())}`, 'Open', 'Reveal in Explorer').then((choice) => {
        if (choice === 'Open') void vscode.commands.executeCommand('vscode.open', target);
        if (choice === 'Reveal in Explorer') void vscode.commands.executeCommand('revealInExplorer', target);
      });
      return target;
    } catch (error) {
      if (error instanceof DownloadError && error.code === 'aborted') {
        this.ui.status('Download cancelled.');
        return undefined;
      }
      const message = error instanceof Error ? error.message : String(error);
      void this.ui.notify('error', `Could not download the video of ${quoted(record)}: ${message}${expiryNote(url, Date.now())}`);
      return undefined;
    } finally {
      if (tempDir) await fs.rm(tempDir, { recursive: true, force: true }).catch(() => undefined);
      if (destination.replace && destination.local) await fs.rm(destination.local, { force: true }).catch(() => undefined);
    }
  }

  /**
   * Where the file goes. `local` is the path streamed to: the final file in a local workspace folder (a new name,
   * never overwriting), or a temporary file that is then copied to `uri` (virtual folders, and save dialogs that
   * replace an existing file).
   */
  private async chooseDestination(name: string): Promise<{ uri: vscode.Uri; local?: string; replace?: boolean } | undefined> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const folder = folders.length > 1 ? await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Save the video into which folder?' }) : folders[0];
    if (folders.length > 1 && !folder) return undefined;
    if (folder) {
      if (folder.uri.scheme === 'file') {
        const file = await uniqueFilePath(folder.uri.fsPath, name);
        return { uri: vscode.Uri.file(file), local: file };
      }
      return { uri: await uniqueWorkspaceUri(folder.uri, name) };
    }
    const picked = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.file(path.join(os.homedir(), name)), filters: { Video: [path.extname(name).slice(1) || 'mp4'] }, saveLabel: 'Download' });
    if (!picked) return undefined;
    if (picked.scheme !== 'file') return { uri: picked };
    // The dialog already asked before replacing a file: stream next to it, then copy over it.
    const local = await uniqueFilePath(path.dirname(picked.fsPath), `.${path.basename(picked.fsPath)}.download`);
    return { uri: picked, local, replace: true };
  }

  /** The key goes along only to the gateway that ran the job, and only while that gateway is the configured one. */
  private async credentialHeadersFor(record: VideoJobRecord, url: string): Promise<Record<string, string> | undefined> {
    if (new URL(url).origin !== record.origin || record.origin !== this.deps.connection.origin) return undefined;
    const key = await this.deps.keyFor(record.origin);
    return key ? { authorization: `Bearer ${key}` } : undefined;
  }

  refresh(argument?: unknown): boolean {
    const target = this.target(argument);
    if (!target) return false;
    if (this.store.refresh(target.record.key)) return true;
    const why = target.record.localState === 'uncertain' ? 'its submission is uncertain; use Check Submission' : `it is ${statusText(target.record)}`;
    void this.ui.notify('info', `The video job ${quoted(target.record)} is not being checked: ${why}.`);
    return false;
  }

  refreshAll(): void {
    const origin = this.deps.view.origin;
    if (origin && this.store.isAuthBlocked(origin)) {
      this.ui.advise({ kind: 'auth', message: `Status checks wait for a working API key for ${origin}.`, actions: [SET_API_KEY] });
    }
    this.store.refreshAll();
    this.deps.view.refresh();
  }

  /** Removes the finished jobs of the current gateway; returns how many. */
  async clearFinished(): Promise<number> {
    const finished = this.deps.view.visibleJobs().filter(isFinalRecord);
    for (const record of finished) {
      await this.store.remove(record.key);
      this.deps.previews.closeJob(record.key);
    }
    this.ui.status(finished.length === 0 ? 'No finished video jobs to clear.' : `Cleared ${finished.length} finished video job${finished.length === 1 ? '' : 's'}.`);
    return finished.length;
  }

  async resubmit(argument?: unknown): Promise<VideoJobRecord | undefined> {
    const target = this.target(argument);
    if (!target) return undefined;
    const { record } = target;
    if (record.localState === 'submitting') {
      void this.ui.notify('info', 'This job is still being submitted.');
      return undefined;
    }
    if (record.localState === 'uncertain') {
      const resubmit = 'Resubmit';
      const choice = await this.ui.ask('warning', `Resubmit ${quoted(record)}?`, 'The first request may have reached the gateway; if it did, resubmitting makes a second job (and a second charge). The uncertain entry is replaced by the new job.', resubmit);
      if (choice !== resubmit) return undefined;
    }
    try {
      const job = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Resubmitting the video job…' }, () => this.store.resubmit(record.key));
      void this.deps.view.reveal(job.key);
      if (job.localState === 'uncertain') void this.warnUncertain(job);
      return job;
    } catch (error) {
      this.ui.advise(adviceFor(error, { origin: record.origin, model: record.model }));
      return undefined;
    }
  }

  /**
   * The gateway API has no job list, so an uncertain submission cannot be looked up. This says so, checks whether
   * the gateway answers now, and offers the choices: resubmit or remove.
   */
  async checkSubmission(argument?: unknown): Promise<void> {
    const target = this.target(argument);
    if (!target) return;
    const { record } = target;
    if (record.localState !== 'uncertain') {
      void this.ui.notify('info', `The video job ${quoted(record)} is ${statusText(record)}; its submission is not in doubt.`);
      return;
    }
    const reachable = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Checking ${new URL(record.origin).host}…` }, async () => {
      const api = await this.deps.connection.apiFor(record.origin);
      if (!api) return `There is no API key for ${record.origin} (or it is not the configured gateway).`;
      try {
        await api.listModels();
        return undefined;
      } catch (error) {
        return adviceFor(error, { origin: record.origin }).message;
      }
    });
    const detail = [
      `Sent ${new Date(record.createdAt).toLocaleString()}. ${record.error?.message ?? ''}`.trim(),
      'The connection dropped after the request went out, so the gateway may have created the job. The gateway API has no way to list jobs; if the gateway’s console shows the job, enter its id to follow it here.',
      reachable === undefined ? 'The gateway answers now, so a resubmission should go through.' : `The gateway still does not answer: ${reachable}`,
    ].join('\n\n');
    const enterId = 'Enter Job ID…';
    const resubmit = 'Resubmit';
    const remove = 'Remove from List';
    const choice = await this.ui.ask('warning', `Submission uncertain: ${quoted(record)}`, detail, enterId, resubmit, remove);
    if (choice === enterId) await this.adoptJobId(record.key);
    if (choice === resubmit) await this.resubmit(record.key);
    if (choice === remove) await this.remove(record.key);
  }

  /** Follows the job the gateway created for an uncertain submission, by the id the user found for it. */
  async adoptJobId(key: string, id?: string): Promise<VideoJobRecord | undefined> {
    const jobId =
      id ??
      (await vscode.window.showInputBox({
        title: 'Job ID of the uncertain submission',
        prompt: 'The id the gateway gave the job (its console lists it). The job is checked before it is added.',
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() === '' ? 'Enter the job id.' : /[\s/?#]/.test(value.trim()) ? 'A job id has no spaces, slashes, ? or #.' : undefined),
      }));
    if (!jobId) return undefined;
    try {
      const adopted = await this.store.adopt(key, jobId);
      void this.ui.notify('info', `Following video job ${adopted.id}: ${statusText(adopted)}.`);
      return adopted;
    } catch (error) {
      const record = this.store.get(key);
      this.ui.advise(adviceFor(error, { origin: record?.origin }));
      return undefined;
    }
  }

  async showError(argument?: unknown): Promise<void> {
    const target = this.target(argument);
    if (!target) return;
    const { record } = target;
    const error = record.error;
    const facts = [
      error ? `${error.message}${error.code ? ` (code ${error.code})` : ''}${error.status !== undefined ? ` (HTTP ${error.status})` : ''}` : `The job ended with status ${statusText(record)} and no error message.`,
      record.id ? `Job ${record.id}, model ${record.model}.` : `Model ${record.model}.`,
      `Submitted ${new Date(record.createdAt).toLocaleString()}${record.completedAt ? `, ended ${new Date(record.completedAt).toLocaleString()}` : ''}.`,
    ];
    const resubmit = 'Resubmit';
    const choice = await this.ui.ask('error', `The video job ${quoted(record)} ${record.localState === 'uncertain' ? 'may not have been submitted' : 'failed'}.`, facts.join('\n'), resubmit);
    if (choice === resubmit) await this.resubmit(record.key);
  }

  /** Forgets a job (asking first while it is unfinished). The only way a job leaves the list, apart from Clear Finished. */
  async remove(argument?: unknown): Promise<boolean> {
    const target = this.target(argument);
    if (!target) return false;
    const { record } = target;
    if (!isFinalRecord(record)) {
      const remove = 'Remove';
      const choice = await this.ui.ask(
        'warning',
        `Remove the unfinished video job ${quoted(record)}?`,
        `It is ${statusText(record)}. The gateway may still finish it, but this window stops following it and its result link is lost.`,
        remove,
      );
      if (choice !== remove) return false;
    }
    const removed = await this.store.remove(record.key);
    this.deps.previews.closeJob(record.key);
    return removed;
  }

  /** The notification when a job ends. */
  private async announce(record: VideoJobRecord): Promise<void> {
    if (!record.localState && isSuccessStatus(record.status)) {
      if (record.resultUrls.length === 0) {
        void this.ui.notify('warning', `The video ${quoted(record)} is finished, but the gateway sent no result link.`);
        return;
      }
      const open = 'Open';
      const preview = 'Preview';
      const choice = await this.ui.notify('info', `Video ready: ${quoted(record)}`, open, preview);
      if (choice === open) await this.openResult(record.key);
      if (choice === preview) await this.preview(record.key);
      return;
    }
    const show = 'Show Error';
    const reason = record.error?.message ?? `it ended with status ${statusText(record)}`;
    const choice = await this.ui.notify('error', `Video failed: ${quoted(record)}: ${reason}`, show);
    if (choice === show) await this.showError(record.key);
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/** Closes an untitled editor without asking to save it. */
async function closeUntitled(document: vscode.TextDocument): Promise<void> {
  if (document.isClosed) return;
  await vscode.window.showTextDocument(document, { preview: false });
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}

async function uniqueWorkspaceUri(folder: vscode.Uri, name: string): Promise<vscode.Uri> {
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  for (let n = 1; ; n++) {
    const uri = vscode.Uri.joinPath(folder, n === 1 ? name : `${stem} (${n})${ext}`);
    try {
      await vscode.workspace.fs.stat(uri);
    } catch {
      return uri;
    }
  }
}
