// Saving into the workspace: names chosen from the entry, the folder kept inside the workspace (links that lead out
// refused), exclusive creation (an existing file or a dangling link is never written through), Keep Both and Replace.
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MediaEntry } from '../../../src/media/core/mediaEntry';
import { folderInside, mediaFileName, replaceFile, SaveError, writeNewFile, writeUnderFreeName } from '../../../src/media/core/workspaceSave';

function entry(overrides: Partial<MediaEntry> = {}): MediaEntry {
  return {
    id: 'mabc123def456',
    kind: 'image',
    createdAt: new Date(2025, 0, 2, 3, 4, 5).getTime(),
    origin: 'http://gw.test',
    model: 'model-image-1.0',
    prompt: 'A paper boat — on a rain-soaked street! ../../etc/passwd',
    files: [{ name: 'mabc123def456-1.png', contentType: 'image/png', bytes: 3 }],
    notes: [],
    ...overrides,
  };
}

describe('media: saving into the workspace', () => {
  let root: string;
  let workspace: string;
  const data = new Uint8Array([1, 2, 3]);

  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'media-save-')));
    workspace = join(root, 'workspace');
    await mkdir(workspace);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('names the file from the kind, the time and the prompt\'s words, with the allowlisted extension of its type', () => {
    assert.equal(mediaFileName(entry(), 0), 'image-20250102-030405-a-paper-boat-on-a-rain-soaked-street-etc.png');
    const two = entry({ files: [entry().files[0], { name: 'mabc123def456-2.jpg', contentType: 'image/jpeg', bytes: 3 }] });
    assert.equal(mediaFileName(two, 1), 'image-20250102-030405-a-paper-boat-on-a-rain-soaked-street-etc-2.jpg');
    const speech = entry({ kind: 'speech', prompt: '日本語だけ', files: [{ name: 'mabc123def456-1.mp3', contentType: 'audio/mpeg', bytes: 3 }] });
    assert.equal(mediaFileName(speech, 0), 'speech-20250102-030405.mp3', 'no usable words: no slug, never an empty or odd name');
    assert.equal(mediaFileName({ ...speech, prompt: 'Every window keeps the same history of media.' }, 0), 'speech-20250102-030405-every-window-keeps-the-same-history-of.mp3', 'whole words only');
    assert.equal(mediaFileName({ ...speech, prompt: 'x'.repeat(100) }, 0), `speech-20250102-030405-${'x'.repeat(40)}.mp3`);
  });

  it('creates the save folder inside the workspace, segment by segment', async () => {
    const dir = await folderInside(workspace, 'media/generated');
    assert.equal(dir, join(workspace, 'media', 'generated'));
    assert.equal(await folderInside(workspace, ''), workspace);
  });

  it('refuses a save folder that leaves the workspace through a link, creating nothing outside', async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    await symlink(outside, join(workspace, 'media'));
    await assert.rejects(folderInside(workspace, 'media/generated'), (e: unknown) => e instanceof SaveError && e.code === 'outside' && /leads outside the workspace/.test(e.message));
    assert.deepEqual(await readdir(outside), [], 'nothing was created behind the link');
    await assert.rejects(folderInside(workspace, '../outside'), (e: unknown) => e instanceof SaveError && e.code === 'outside');
  });

  it('creates a file exclusively: an existing name, or a dangling link, is reported, never written through', async () => {
    assert.equal(await writeNewFile(workspace, 'a.png', data), join(workspace, 'a.png'));
    assert.equal(await writeNewFile(workspace, 'a.png', new Uint8Array([9])), 'exists');
    assert.deepEqual(await readFile(join(workspace, 'a.png')), Buffer.from(data));
    const target = join(root, 'victim.txt');
    await symlink(target, join(workspace, 'b.png'));
    assert.equal(await writeNewFile(workspace, 'b.png', data), 'exists');
    await assert.rejects(readFile(target), /ENOENT/, 'the link was not followed');
  });

  it('Keep Both finds a free name; Replace swaps the file in one step', async () => {
    await writeFile(join(workspace, 'a.png'), 'old');
    await writeFile(join(workspace, 'a (2).png'), 'old');
    assert.equal(await writeUnderFreeName(workspace, 'a.png', data), join(workspace, 'a (3).png'));
    assert.equal(await replaceFile(workspace, 'a.png', data), join(workspace, 'a.png'));
    assert.deepEqual(await readFile(join(workspace, 'a.png')), Buffer.from(data));
    assert.deepEqual((await readdir(workspace)).sort(), ['a (2).png', 'a (3).png', 'a.png'], 'no temp file left');
  });
});
