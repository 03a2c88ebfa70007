// UI adapter: the Video Jobs tree. One item per job (newest first), one child per result link of a completed job.
// Menus pick actions by the capability tokens in each item's contextValue (see package.json, `viewItem =~`).
import * as vscode from 'vscode';
import { checkResultUrl, resultFileName, urlExpiry } from './download';
import { displayStatus, isFinalRecord, isPollable, type VideoJobRecord } from './jobRecord';
import { isSuccessStatus } from './status';

export type VideoJobNode = { readonly kind: 'job'; readonly key: string } | { readonly kind: 'result'; readonly key: string; readonly index: number };

/** What the tree shows: the jobs of the current gateway, newest first. */
export interface JobList {
  jobs(): VideoJobRecord[];
  get(key: string): VideoJobRecord | undefined;
}

const QUEUED = new Set(['queued', 'pending', 'submitted', 'waiting']);
const RUNNING = new Set(['in_progress', 'in progress', 'running', 'processing', 'generating', 'started']);

type StatusGroup = 'queued' | 'running' | 'completed' | 'failed' | 'other';

function statusGroup(record: VideoJobRecord): StatusGroup {
  if (record.localState === 'submitting') return 'running';
  if (record.localState === 'not_found') return 'failed';
  if (record.localState === 'uncertain') return 'other';
  const status = record.status.trim().toLowerCase();
  if (isSuccessStatus(status)) return 'completed';
  if (isFinalRecord(record)) return 'failed';
  if (QUEUED.has(status)) return 'queued';
  if (RUNNING.has(status)) return 'running';
  return 'other';
}

const ICONS: Record<StatusGroup, { id: string; color?: string }> = {
  queued: { id: 'clock' },
  running: { id: 'sync~spin' },
  completed: { id: 'pass', color: 'testing.iconPassed' },
  failed: { id: 'error', color: 'testing.iconFailed' },
  other: { id: 'question' },
};

export function jobIcon(record: VideoJobRecord): vscode.ThemeIcon {
  const icon = ICONS[statusGroup(record)];
  return new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
}

/** The tokens menus match with `viewItem =~ /\btoken\b/`. */
export function jobContextTokens(record: VideoJobRecord): string[] {
  const tokens: string[] = [];
  if (record.id) tokens.push('job');
  const group = statusGroup(record);
  if (record.resultUrls.length > 0 && checkResultUrl(record.resultUrls[0]).ok) tokens.push('previewable', 'openable', 'downloadable');
  if (group === 'failed') tokens.push('failed');
  if (record.localState === 'uncertain') tokens.push('uncertain');
  if (isPollable(record)) tokens.push('refreshable');
  if (record.localState === 'uncertain' || isFinalRecord(record)) tokens.push('resubmittable');
  tokens.push('removable');
  return tokens;
}

export function resultContextTokens(url: string): string[] {
  return checkResultUrl(url).ok ? ['result', 'previewable', 'openable', 'downloadable'] : ['result'];
}

/** The prompt on one line, at most `max` characters. */
export function shortPrompt(prompt: string, max = 60): string {
  const line = prompt.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line || '(no prompt)';
}

export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return minutes % 60 === 0 ? `${minutes / 60} h` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function statusText(record: VideoJobRecord): string {
  return displayStatus(record).replace(/_/g, ' ');
}

/** "status · age · resolution · duration". */
export function jobDescription(record: VideoJobRecord, now: number): string {
  const parts = [statusText(record), formatAge(now - record.createdAt)];
  if (record.parameters.resolution) parts.push(record.parameters.resolution);
  if (record.parameters.duration !== undefined) parts.push(`${record.parameters.duration} s`);
  return parts.join(' · ');
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&]/g, (c) => `\\${c}`);
}

function formatTime(ms: number): string {
  return new Date(ms).toLocaleString();
}

export function expiryText(url: string, now: number): string | undefined {
  const expires = urlExpiry(url);
  if (expires === undefined) return undefined;
  return expires <= now ? `link expired ${formatAge(now - expires)}` : `link valid for ${formatDuration(expires - now)}`;
}

export function jobTooltip(record: VideoJobRecord, now: number): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  const line = (label: string, value: string) => md.appendMarkdown(`- **${label}:** ${value}\n`);
  md.appendMarkdown(`**${escapeMarkdown(statusText(record))}**\n\n`);
  md.appendMarkdown(`${escapeMarkdown(record.prompt.length > 600 ? `${record.prompt.slice(0, 599)}…` : record.prompt)}\n\n`);
  line('Job ID', record.id ? escapeMarkdown(record.id) : '_none yet_');
  line('Model', escapeMarkdown(record.model));
  line('Gateway', escapeMarkdown(record.origin));
  if (record.parameters.resolution) line('Resolution', escapeMarkdown(record.parameters.resolution));
  if (record.parameters.duration !== undefined) line('Duration', `${record.parameters.duration} s`);
  if (record.parameters.extra) line('Other parameters', escapeMarkdown(JSON.stringify(record.parameters.extra)));
  if (record.sourceVideoUrl) line('Source video', escapeMarkdown(record.sourceVideoUrl));
  line('Submitted', `${escapeMarkdown(formatTime(record.createdAt))} (${formatAge(now - record.createdAt)})`);
  if (record.completedAt !== undefined) line('Finished', `${escapeMarkdown(formatTime(record.completedAt))} (after ${formatDuration(record.completedAt - record.createdAt)})`);
  else line('Updated', escapeMarkdown(formatTime(record.updatedAt)));
  record.resultUrls.forEach((url, i) => {
    const expiry = expiryText(url, now);
    line(record.resultUrls.length > 1 ? `Result ${i + 1}` : 'Result', `${escapeMarkdown(hostOf(url))}${expiry ? ` (${expiry})` : ''}`);
  });
  if (record.error) {
    const extra = [record.error.code, record.error.status !== undefined ? `HTTP ${record.error.status}` : undefined].filter(Boolean).join(', ');
    line('Error', `${escapeMarkdown(record.error.message)}${extra ? ` (${escapeMarkdown(extra)})` : ''}`);
  }
  return md;
}

function hostOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url.slice(0, 80);
  }
}

export function jobTreeItem(record: VideoJobRecord, now: number): vscode.TreeItem {
  const hasResults = record.resultUrls.length > 0;
  const item = new vscode.TreeItem(shortPrompt(record.prompt), hasResults ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `job:${record.key}`;
  item.description = jobDescription(record, now);
  item.iconPath = jobIcon(record);
  item.tooltip = jobTooltip(record, now);
  item.contextValue = jobContextTokens(record).join(' ');
  item.accessibilityInformation = { label: `Video job ${shortPrompt(record.prompt)}, ${item.description}` };
  return item;
}

export function resultTreeItem(record: VideoJobRecord, index: number, now: number): vscode.TreeItem {
  const url = record.resultUrls[index];
  const item = new vscode.TreeItem(resultFileName(url, record.id, index), vscode.TreeItemCollapsibleState.None);
  item.id = `result:${record.key}:${index}`;
  const usable = checkResultUrl(url).ok;
  item.description = usable ? (expiryText(url, now) ?? hostOf(url)) : 'unsupported link';
  item.iconPath = new vscode.ThemeIcon('file-media');
  item.tooltip = new vscode.MarkdownString(`${escapeMarkdown(hostOf(url))}${usable ? '' : '\n\nOnly http and https links can be opened.'}`);
  item.contextValue = resultContextTokens(url).join(' ');
  if (usable) item.command = { command: 'modelGateway.videos.preview', title: 'Preview', arguments: [{ kind: 'result', key: record.key, index }] };
  return item;
}

export class VideoJobsTreeProvider implements vscode.TreeDataProvider<VideoJobNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<VideoJobNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly jobNodes = new Map<string, VideoJobNode>();
  private readonly resultNodes = new Map<string, VideoJobNode>();
  /** Keeps the ages in the descriptions current. */
  private readonly ageTimer: ReturnType<typeof setInterval>;

  constructor(
    private list: JobList,
    private readonly now: () => number = Date.now,
  ) {
    this.ageTimer = setInterval(() => this.jobNodes.size > 0 && this.refresh(), 30_000);
  }

  setList(list: JobList): void {
    this.list = list;
    this.refresh();
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  jobNode(key: string): VideoJobNode {
    let node = this.jobNodes.get(key);
    if (!node) this.jobNodes.set(key, (node = { kind: 'job', key }));
    return node;
  }

  resultNode(key: string, index: number): VideoJobNode {
    const id = `${key}#${index}`;
    let node = this.resultNodes.get(id);
    if (!node) this.resultNodes.set(id, (node = { kind: 'result', key, index }));
    return node;
  }

  getChildren(element?: VideoJobNode): VideoJobNode[] {
    if (!element) {
      const jobs = this.list.jobs();
      const keys = new Set(jobs.map((j) => j.key));
      for (const key of this.jobNodes.keys()) if (!keys.has(key)) this.jobNodes.delete(key);
      for (const [id, node] of this.resultNodes) if (!keys.has(node.key)) this.resultNodes.delete(id);
      return jobs.map((j) => this.jobNode(j.key));
    }
    if (element.kind === 'result') return [];
    const record = this.list.get(element.key);
    return record ? record.resultUrls.map((_, i) => this.resultNode(element.key, i)) : [];
  }

  getTreeItem(element: VideoJobNode): vscode.TreeItem {
    const record = this.list.get(element.key);
    if (!record) {
      const gone = new vscode.TreeItem('(removed)');
      gone.id = `${element.kind}:${element.key}${element.kind === 'result' ? `:${element.index}` : ''}`;
      return gone;
    }
    const now = this.now();
    return element.kind === 'job' ? jobTreeItem(record, now) : resultTreeItem(record, element.index, now);
  }

  getParent(element: VideoJobNode): VideoJobNode | undefined {
    return element.kind === 'result' ? this.jobNode(element.key) : undefined;
  }

  dispose(): void {
    clearInterval(this.ageTimer);
    this.changed.dispose();
  }
}
