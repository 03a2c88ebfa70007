// Edit Image's core with the real client, the simulator and files on disk: a workspace image is sent to
// /images/edits (multipart) or, on an openrouter-dialect profile, in the chat message; the result is kept and written
// beside the original under a new name; the original is never written; a file outside the workspace is read only
// after the user's yes.
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editImage, EditError, type EditPlace } from '../../../src/media/core/imageEdit';
import type { MediaCoreDeps } from '../../../src/media/core/mediaGeneration';
import { MediaHistory } from '../../../src/media/core/mediaHistory';
import type { DialectSetting } from '../../../src/settings/profile';
import { realClock } from '../../../src/util/clock';
import { encodePng } from '../../simulator/png';
import { parsePng } from '../../util/mediaFiles';
import { simulatorMediaDeps, useSimulatorMedia } from './simulatorMediaDeps';

const SOURCE = encodePng(40, 30, new Uint8Array(40 * 30 * 3).fill(120));

describe('Edit Image core against the simulator', function () {
  this.timeout(20_000);
  const media = useSimulatorMedia();
  let root: string;
  let workspace: string;
  let history: MediaHistory;
  let dialect: DialectSetting | undefined;
  let questions: string[];
  let answer: boolean;

  const deps = (): MediaCoreDeps =>
    simulatorMediaDeps(media, () => ({ history, listed: ['model-k3', 'model-image-1.0'], dialect, override: { imageResponseFormat: 'b64_json' } }));
  const place = (): EditPlace => ({ roots: [workspace], confirm: async (question) => (questions.push(question), answer), ownFolder: history.filesFolder });

  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'image-edit-')));
    workspace = join(root, 'workspace');
    await mkdir(join(workspace, 'assets'), { recursive: true });
    await writeFile(join(workspace, 'assets', 'logo.png'), SOURCE);
    history = new MediaHistory({ folder: join(root, 'history'), clock: realClock, limit: () => 100 });
    dialect = undefined;
    questions = [];
    answer = false;
    media.sim.clearLog();
  });
  afterEach(async () => {
    history.dispose();
    await rm(root, { recursive: true, force: true });
  });

  it('sends a workspace image to /images/edits and writes the result beside it as a new file, the original untouched', async () => {
    const path = join(workspace, 'assets', 'logo.png');
    const first = await editImage(deps(), { path, prompt: 'make it blue' }, place());
    assert.equal(first.written, join(workspace, 'assets', 'logo-edited.png'));
    assert.deepEqual(parsePng(await readFile(first.written!)), { width: 40, height: 30, bitDepth: 8, colourType: 2 });
    assert.deepEqual(await readFile(path), SOURCE, 'the original is unchanged');
    assert.equal(first.entry.files.length, 1, 'kept in the Media history too');
    const second = await editImage(deps(), { path, prompt: 'make it green' }, place());
    assert.equal(second.written, join(workspace, 'assets', 'logo-edited (2).png'), 'an earlier result is never overwritten either');
    assert.deepEqual((await readdir(join(workspace, 'assets'))).sort(), ['logo-edited (2).png', 'logo-edited.png', 'logo.png']);
    const sent = media.sim.log.filter((e) => e.path === '/v1/images/edits');
    assert.equal(sent.length, 2);
    assert.match(String(sent[0].headers?.['content-type'] ?? ''), /^multipart\/form-data; boundary=/);
    assert.deepEqual(questions, [], 'a workspace file needs no question');
  });

  it('sends the mask, and the gateway refuses one of another size', async () => {
    const mask = join(workspace, 'assets', 'mask.png');
    await writeFile(mask, encodePng(10, 10, new Uint8Array(300)));
    await assert.rejects(editImage(deps(), { path: join(workspace, 'assets', 'logo.png'), prompt: 'x', mask }, place()), /mask is 10x10; it must be the image's size, 40x30/);
  });

  it('on an openrouter-dialect profile, sends the image in the chat message; a mask cannot go, and the note says so', async () => {
    dialect = 'openrouter';
    const mask = join(workspace, 'assets', 'mask.png');
    await writeFile(mask, encodePng(40, 30, new Uint8Array(40 * 30 * 3)));
    const outcome = await editImage(deps(), { path: join(workspace, 'assets', 'logo.png'), prompt: 'make it blue', mask }, place());
    assert.deepEqual(media.sim.log.map((e) => e.path), ['/v1/chat/completions']);
    const content = (media.sim.log[0].body as { messages: Array<{ content: Array<{ type: string; image_url?: { url: string } }> }> }).messages[0].content;
    assert.equal(content[1].image_url?.url, `data:image/png;base64,${SOURCE.toString('base64')}`);
    assert.equal(outcome.entry.files[0].caption, 'Edited: make it blue');
    assert.match(outcome.notes[0], /The mask was not sent/);
    assert.equal(parsePng(await readFile(outcome.written!)).width, 40, 'the result has the source size');
  });

  it('asks before reading a file outside the workspace (a link out of it included); no means nothing is read or sent', async () => {
    const outside = join(root, 'elsewhere.png');
    await writeFile(outside, SOURCE);
    const link = join(workspace, 'assets', 'linked.png');
    await symlink(outside, link);
    for (const path of [outside, link]) {
      const error = await editImage(deps(), { path, prompt: 'x' }, place()).catch((e: unknown) => e);
      assert.ok(error instanceof EditError && error.code === 'declined', String(error));
    }
    assert.equal(questions.length, 2);
    assert.match(questions[0], /elsewhere\.png is outside the workspace/);
    assert.match(questions[1], /links to .*elsewhere\.png, outside the workspace/);
    assert.deepEqual(media.sim.log, [], 'nothing sent');
    answer = true;
    const outcome = await editImage(deps(), { path: outside, prompt: 'x' }, place());
    assert.equal(outcome.written, undefined, 'nothing is written outside the workspace');
    assert.deepEqual((await readdir(root)).sort(), ['elsewhere.png', 'history', 'workspace']);
  });

  it('refuses what is not an image, and an image over the size limit, before sending', async () => {
    const text = join(workspace, 'notes.png');
    await writeFile(text, 'not a picture');
    await assert.rejects(editImage(deps(), { path: text, prompt: 'x' }, place()), /is not a PNG, JPEG, WebP or GIF image/);
    const small = { ...deps(), settings: () => ({ ...deps().settings(), maxBytes: SOURCE.length - 1 }) };
    await assert.rejects(editImage(small, { path: join(workspace, 'assets', 'logo.png'), prompt: 'x' }, place()), new RegExp(`logo\\.png is ${SOURCE.length} B; images up to ${SOURCE.length - 1} B are sent`));
    assert.deepEqual(media.sim.log, []);
  });
});
