// UI adapter: the Video Jobs tree. One item per job (newest first), one child per result link of a completed job.
// Which elements to refresh is worked out in jobTreeNodes.ts; the texts and menu tokens come from jobPresentation.ts.
// Menus pick actions by the capability tokens in each item's contextValue (see package.json, `viewItem =~`).
import * as vscode from 'vscode';
import { escapeMarkdown } from '../../util/html';
import { resultFileStem } from '../core/resultFileName';
import type { VideoJobRecord } from '../core/jobRecord';
import { formatAge } from '../../util/age';
import { realClock, type Clock, type TimerHandle } from '../../util/clock';
import { expiryText, formatDuration, jobContextTokens, jobDescription, linkWithoutQuery, resultContextTokens, shortPrompt, statusGroup, statusText, thumbnailMarkdown, type StatusGroup, type VideoJobNode } from '../core/jobPresentation';
import { JobTreeNodes, type JobList } from '../core/jobTreeNodes';
import { checkResultUrl } from '../core/resultLinks';
import { VIDEO_COMMANDS } from './commands';

/** How often the ages in the descriptions are refreshed. */
const AGE_REFRESH_MS = 30_000;

const ICONS: Record<StatusGroup, { id: string; color?: string }> = {
  queued: { id: 'clock' },
  running: { id: 'sync~spin' },
  completed: { id: 'pass', color: 'testing.iconPassed' },
  failed: { id: 'error', color: 'testing.iconFailed' },
  other: { id: 'question' },
};

function jobIcon(record: VideoJobRecord): vscode.ThemeIcon {
  const icon = ICONS[statusGroup(record)];
  return new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
}

function formatTime(ms: number): string {
  return new Date(ms).toLocaleString();
}

function jobTooltip(record: VideoJobRecord, now: number, thumbnail: vscode.Uri | undefined): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  const line = (label: string, value: string) => md.appendMarkdown(`- **${label}:** ${value}\n`);
  const picture = thumbnail && thumbnailMarkdown(thumbnail.toString());
  if (picture) md.appendMarkdown(picture);
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
    line(record.resultUrls.length > 1 ? `Result ${i + 1}` : 'Result', `${escapeMarkdown(linkWithoutQuery(url))}${expiry ? ` (${expiry})` : ''}`);
  });
  if (record.error) {
    const extra = [record.error.code, record.error.status !== undefined ? `HTTP ${record.error.status}` : undefined].filter(Boolean).join(', ');
    line('Error', `${escapeMarkdown(record.error.message)}${extra ? ` (${escapeMarkdown(extra)})` : ''}`);
  }
  return md;
}

/** The job's kept thumbnail (a file of ours in the kept folder) is its icon and its tooltip's picture, where there is one. */
function jobTreeItem(record: VideoJobRecord, now: number, profile: string | undefined, thumbnailFile: string | undefined): vscode.TreeItem {
  const thumbnail = thumbnailFile === undefined ? undefined : vscode.Uri.file(thumbnailFile);
  const hasResults = record.resultUrls.length > 0;
  const item = new vscode.TreeItem(shortPrompt(record.prompt), hasResults ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
  item.id = `job:${record.key}`;
  item.description = profile ? `${profile} · ${jobDescription(record, now)}` : jobDescription(record, now);
  item.iconPath = thumbnail ?? jobIcon(record);
  item.tooltip = jobTooltip(record, now, thumbnail);
  item.contextValue = jobContextTokens(record).join(' ');
  item.accessibilityInformation = { label: `Video job ${shortPrompt(record.prompt)}, ${item.description}` };
  return item;
}

function resultTreeItem(record: VideoJobRecord, index: number, now: number, keptFile: string | undefined): vscode.TreeItem {
  const url = record.resultUrls[index];
  const item = new vscode.TreeItem(resultFileStem(record.id, index), vscode.TreeItemCollapsibleState.None);
  item.id = `result:${record.key}:${index}`;
  const usable = checkResultUrl(url).ok;
  // A kept copy plays first (Preview), so the link's expiry no longer matters.
  item.description = keptFile ? 'kept' : usable ? (expiryText(url, now) ?? linkWithoutQuery(url)) : 'unsupported link';
  item.iconPath = new vscode.ThemeIcon('file-media');
  item.tooltip = new vscode.MarkdownString(`${escapeMarkdown(linkWithoutQuery(url))}${keptFile ? '\n\nKept on this machine before the link expires; Preview plays the kept copy.' : ''}${usable ? '' : '\n\nOnly http and https links can be opened.'}`);
  item.contextValue = resultContextTokens(url).join(' ');
  if (usable) item.command = { command: VIDEO_COMMANDS.preview, title: 'Preview', arguments: [{ kind: 'result', key: record.key, index }] };
  return item;
}

export class VideoJobsTreeProvider implements vscode.TreeDataProvider<VideoJobNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<VideoJobNode | VideoJobNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly nodes: JobTreeNodes;
  /** Keeps the ages in the descriptions current. */
  private ageTimer: TimerHandle | undefined;
  private disposed = false;

  /** The kept copy of a job's first result (resultKeeper); none in an instance that keeps no copies. */
  keptFile: (key: string) => string | undefined = () => undefined;
  /** The kept thumbnail of a job's result (resultKeeper); none in an instance that keeps no copies. */
  thumbnailFile: (key: string) => string | undefined = () => undefined;

  constructor(
    private readonly list: JobList,
    private readonly clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'> = realClock,
  ) {
    this.nodes = new JobTreeNodes(list);
    this.armAgeTimer();
  }

  private armAgeTimer(): void {
    this.ageTimer = this.clock.setTimeout(() => {
      this.refreshNodes(this.nodes.listedNodes());
      if (!this.disposed) this.armAgeTimer();
    }, AGE_REFRESH_MS);
  }

  /** Re-reads the whole tree: the shown gateway changed, or the user asked. */
  refresh(): void {
    this.changed.fire(undefined);
  }

  /** Refreshes what a change of these jobs touches: their own elements, or the root when a job appears, goes or moves. */
  jobsChanged(keys: readonly string[]): void {
    const refresh = this.nodes.refreshFor(keys);
    if (refresh === 'root') this.refresh();
    else this.refreshNodes(refresh);
  }

  private refreshNodes(nodes: VideoJobNode[]): void {
    if (nodes.length > 0) this.changed.fire(nodes);
  }

  jobNode(key: string): VideoJobNode {
    return this.nodes.jobNode(key);
  }

  getChildren(element?: VideoJobNode): VideoJobNode[] {
    return element ? this.nodes.children(element) : this.nodes.roots();
  }

  getTreeItem(element: VideoJobNode): vscode.TreeItem {
    const record = this.list.get(element.key);
    if (!record) {
      const gone = new vscode.TreeItem('(removed)');
      gone.id = `${element.kind}:${element.key}${element.kind === 'result' ? `:${element.index}` : ''}`;
      return gone;
    }
    const now = this.clock.now();
    return element.kind === 'job' ? jobTreeItem(record, now, this.list.profileLabel?.(record), this.thumbnailFile(record.key)) : resultTreeItem(record, element.index, now, element.index === 0 ? this.keptFile(record.key) : undefined);
  }

  getParent(element: VideoJobNode): VideoJobNode | undefined {
    return this.nodes.parent(element);
  }

  dispose(): void {
    this.disposed = true;
    if (this.ageTimer !== undefined) this.clock.clearTimeout(this.ageTimer);
    this.ageTimer = undefined;
    this.changed.dispose();
  }
}
