// The Video Jobs tree's elements, kept apart from VS Code: one stable object per job and per result link (the tree
// matches elements by identity), and for a change of some jobs, which elements to refresh. The root is re-read
// (and so re-sorted) only when a job appears, disappears or may move; otherwise just the changed jobs. Pure.
import type { VideoJobRecord } from './jobRecord';
import type { JobNode, ResultNode, VideoJobNode } from './jobPresentation';

/** What the tree shows. */
export interface JobList {
  /** The shown jobs in display order (newest first: by `createdAt`, so nothing else can move a job). */
  jobs(): readonly VideoJobRecord[];
  /** A shown job; undefined when it is gone or not shown (another gateway's). */
  get(key: string): VideoJobRecord | undefined;
  /** The name of the job's profile when jobs of more than one profile are shown; undefined otherwise. */
  profileLabel?(record: VideoJobRecord): string | undefined;
}

export class JobTreeNodes {
  /** `createdAt` of each job as the root was last listed; undefined until it is. */
  private listed: Map<string, number> | undefined;
  private readonly jobNodes = new Map<string, JobNode>();
  private readonly resultNodes = new Map<string, ResultNode[]>();

  constructor(private readonly list: JobList) {}

  roots(): JobNode[] {
    const jobs = this.list.jobs();
    this.listed = new Map(jobs.map((job) => [job.key, job.createdAt]));
    for (const key of this.jobNodes.keys()) if (!this.listed.has(key)) this.jobNodes.delete(key);
    for (const key of this.resultNodes.keys()) if (!this.listed.has(key)) this.resultNodes.delete(key);
    return jobs.map((job) => this.jobNode(job.key));
  }

  children(node: VideoJobNode): ResultNode[] {
    if (node.kind === 'result') return [];
    const count = this.list.get(node.key)?.resultUrls.length ?? 0;
    const nodes = (this.resultNodes.get(node.key) ?? []).slice(0, count);
    for (let index = nodes.length; index < count; index++) nodes.push({ kind: 'result', key: node.key, index });
    this.resultNodes.set(node.key, nodes);
    return nodes;
  }

  parent(node: VideoJobNode): JobNode | undefined {
    return node.kind === 'result' ? this.jobNode(node.key) : undefined;
  }

  jobNode(key: string): JobNode {
    let node = this.jobNodes.get(key);
    if (!node) this.jobNodes.set(key, (node = { kind: 'job', key }));
    return node;
  }

  /** The job elements of the last listing. */
  listedNodes(): JobNode[] {
    return [...(this.listed?.keys() ?? [])].map((key) => this.jobNode(key));
  }

  /** What to refresh after these jobs changed: 'root', or the job elements (an empty list: nothing shown changed). */
  refreshFor(keys: readonly string[]): 'root' | JobNode[] {
    if (!this.listed) return 'root';
    const nodes = new Set<JobNode>();
    for (const key of keys) {
      const before = this.listed.get(key);
      const now = this.list.get(key);
      if (before === undefined && now === undefined) continue;
      if (before === undefined || now === undefined || before !== now.createdAt) return 'root';
      nodes.add(this.jobNode(key));
    }
    return [...nodes];
  }
}
