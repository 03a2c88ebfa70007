// The media service as the outside gets it (MediaApi): built at activation over the Media history, it loads nothing
// else until a call needs it; kept files and Save to Workspace are looked up in the history by entry and file name.
import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaCall } from '../../../src/media/core/api';
import { MediaService } from '../../../src/media/core/mediaService';
import { realClock } from '../../../src/util/clock';
import { encodePng } from '../../simulator/png';

describe('media service (MediaApi)', () => {
  let folder: string;
  let service: MediaService | undefined;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'mg-media-service-'));
  });

  afterEach(async () => {
    service?.dispose();
    await rm(folder, { recursive: true, force: true });
  });

  it('loads its gateway calls only when one is made, and hands each call on as it came', async () => {
    const loads: string[] = [];
    const calls: MediaCall[] = [];
    const made = { entryId: 'e1', fileName: 'e1-0.png', contentType: 'image/png', model: 'model-image-1.0' };
    service = new MediaService(
      { folder, clock: realClock, limit: () => 100 },
      {
        calls: () => (loads.push('calls'), { generateImage: async (_ask, call) => (calls.push(call), made), synthesizeSpeech: async () => made, editImage: async () => made, transcribe: async () => ({ text: '', model: '', timed: false }) }),
        save: async () => loads.push('save'),
      },
    );
    assert.equal(service.filesFolder, join(folder, 'files'));
    assert.deepEqual(loads, [], 'building the service loads nothing');
    const signal = new AbortController().signal;
    assert.deepEqual(await service.generateImage({ prompt: 'a fox' }, { signal, surface: 'chat-image', profile: 'p-work' }), made);
    assert.deepEqual(loads, ['calls']);
    assert.deepEqual(calls, [{ signal, surface: 'chat-image', profile: 'p-work' }]);
  });

  it('finds a kept file and saves it by its index; one no longer in the history is refused in words', async () => {
    const saved: Array<[string, number]> = [];
    service = new MediaService({ folder, clock: realClock, limit: () => 100 }, { calls: () => assert.fail('not asked'), save: async (entry, index) => saved.push([entry, index]) });
    await service.history.ready;
    const png = encodePng(1, 1, new Uint8Array([1, 2, 3]));
    const entry = await service.history.add({ kind: 'image', origin: 'http://gw.test', model: 'model-image-1.0', prompt: 'p', size: '256x256', files: [png, png].map((data) => ({ data, contentType: 'image/png' as const })), notes: [] });
    const second = entry.files[1];
    assert.deepEqual(service.keptFile(entry.id, second.name), { path: service.history.filePath(second), contentType: 'image/png' });
    assert.equal(service.keptFile(entry.id, 'other.png'), undefined);
    await service.save(entry.id, second.name);
    assert.deepEqual(saved, [[entry.id, 1]]);
    await assert.rejects(service.save('gone', 'gone-0.png'), /no longer in the Media history/);
  });
});
