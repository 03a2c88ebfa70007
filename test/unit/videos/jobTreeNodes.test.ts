import * as assert from 'node:assert/strict';
import type { VideoJobRecord } from '../../../src/videos/core/jobRecord';
import { JobTreeNodes, type JobList } from '../../../src/videos/core/jobTreeNodes';

function job(key: string, createdAt: number, resultUrls: string[] = []): VideoJobRecord {
  return { key, id: `vid_${key}`, origin: 'https://gw.example', model: 'm', prompt: key, parameters: {}, status: 'queued', resultUrls, createdAt, updatedAt: createdAt };
}

/** A list like the view's: newest first, `hidden` keys belong to another gateway. */
class List implements JobList {
  readonly records = new Map<string, VideoJobRecord>();
  readonly hidden = new Set<string>();
  listings = 0;
  constructor(...jobs: VideoJobRecord[]) {
    for (const j of jobs) this.records.set(j.key, j);
  }
  jobs(): VideoJobRecord[] {
    this.listings++;
    return [...this.records.values()].filter((j) => !this.hidden.has(j.key)).sort((a, b) => b.createdAt - a.createdAt);
  }
  get(key: string): VideoJobRecord | undefined {
    return this.hidden.has(key) ? undefined : this.records.get(key);
  }
}

describe('JobTreeNodes', () => {
  it('re-reads the root until the tree has listed it', () => {
    const nodes = new JobTreeNodes(new List(job('a', 1)));
    assert.equal(nodes.refreshFor(['a']), 'root');
  });

  it('refreshes just the changed jobs, as the elements the tree already has', () => {
    const list = new List(job('a', 1), job('b', 2), job('c', 3));
    const nodes = new JobTreeNodes(list);
    const roots = nodes.roots();
    assert.deepEqual(roots.map((n) => n.key), ['c', 'b', 'a']);
    list.records.set('b', { ...job('b', 2), status: 'in_progress' });
    const refresh = nodes.refreshFor(['b', 'b']);
    assert.ok(refresh !== 'root');
    assert.equal(refresh.length, 1);
    assert.equal(refresh[0], roots[1], 'the same object the tree was given');
    assert.equal(list.listings, 1, 'the list was not read or sorted again');
    assert.deepEqual(nodes.refreshFor(['gone-before-it-was-shown']), []);
  });

  it('re-reads the root when a job appears, goes, changes gateway or may move', () => {
    const list = new List(job('a', 1), job('b', 2));
    const nodes = new JobTreeNodes(list);
    nodes.roots();
    list.records.set('c', job('c', 3));
    assert.equal(nodes.refreshFor(['c']), 'root', 'added');
    nodes.roots();
    list.records.delete('a');
    assert.equal(nodes.refreshFor(['a']), 'root', 'removed');
    nodes.roots();
    list.hidden.add('b');
    assert.equal(nodes.refreshFor(['b']), 'root', 'no longer shown');
    list.hidden.delete('b');
    nodes.roots();
    list.records.set('b', job('b', 10));
    assert.equal(nodes.refreshFor(['b']), 'root', 'a new createdAt may change the order');
  });

  it('keeps result elements per index, drops them with their job, and knows their parent', () => {
    const list = new List(job('a', 1, ['https://x/1', 'https://x/2']));
    const nodes = new JobTreeNodes(list);
    const [a] = nodes.roots();
    const results = nodes.children(a);
    assert.deepEqual(results, [{ kind: 'result', key: 'a', index: 0 }, { kind: 'result', key: 'a', index: 1 }]);
    assert.equal(nodes.children(a)[1], results[1]);
    assert.equal(nodes.parent(results[0]), a);
    assert.deepEqual(nodes.children(results[0]), []);
    list.records.set('a', job('a', 1, ['https://x/1']));
    assert.deepEqual(nodes.children(a), [results[0]]);
    list.records.delete('a');
    nodes.roots();
    list.records.set('a', job('a', 1, ['https://x/1']));
    const [again] = nodes.roots();
    assert.notEqual(again, a, 'a job that left and came back is a new element');
    assert.notEqual(nodes.children(again)[0], results[0]);
  });

  it('lists the shown job elements for the age refresh', () => {
    const list = new List(job('a', 1), job('b', 2));
    const nodes = new JobTreeNodes(list);
    assert.deepEqual(nodes.listedNodes(), []);
    const roots = nodes.roots();
    assert.deepEqual(nodes.listedNodes(), roots);
    assert.equal(nodes.listedNodes()[0], roots[0]);
  });
});
