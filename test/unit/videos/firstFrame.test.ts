// Image to video: a workspace image becomes the job's first frame, a data URL each dialect puts where its gateway
// takes it (spec and dashscope input.img_url, openai input_reference, openrouter frame_images, xai image.url). The
// file is read bounded and only after a yes when it lies outside the workspace (or through a link leading out).
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dialectOf, type DialectName } from '../../../src/videos/core/dialects';
import { MAX_FIRST_FRAME_BYTES, readFirstFrame } from '../../../src/videos/core/firstFrame';
import { buildVideoRequest } from '../../../src/videos/core/videoRequest';
import { FileRefusal, type ReadPlace } from '../../../src/util/consentedRead';
import { encodePng } from '../../simulator/png';

const PNG = Buffer.from(encodePng(4, 3, new Uint8Array(4 * 3 * 3).fill(90)));
const DATA_URL = `data:image/png;base64,${PNG.toString('base64')}`;

describe('first frame (image to video)', () => {
  let root: string;
  let workspace: string;
  let questions: string[];
  let answer: boolean;
  const place = async (): Promise<ReadPlace & { firstFolder?: string }> => ({ roots: [workspace], confirm: async (q) => (questions.push(q), answer), firstFolder: workspace });

  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'mg-frame-')));
    workspace = join(root, 'ws');
    await mkdir(workspace);
    await writeFile(join(workspace, 'frame.png'), PNG);
    questions = [];
    answer = true;
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('reads a workspace image (a relative path from the first folder) into a data URL without asking', async () => {
    assert.equal(await readFirstFrame({ path: 'frame.png' }, place), DATA_URL);
    assert.equal(await readFirstFrame({ path: join(workspace, 'frame.png') }, place), DATA_URL);
    assert.deepEqual(questions, []);
  });

  it('asks before a file outside the workspace (or a link leading out) is read, and reads nothing on a no', async () => {
    await writeFile(join(root, 'outside.png'), PNG);
    await symlink(join(root, 'outside.png'), join(workspace, 'link.png'));
    answer = false;
    for (const path of [join(root, 'outside.png'), 'link.png']) {
      await assert.rejects(readFirstFrame({ path }, place), (e: unknown) => e instanceof FileRefusal && e.code === 'declined');
    }
    assert.equal(questions.length, 2);
    assert.match(questions[0], /outside the workspace/);
    assert.match(questions[1], /links to .*outside\.png/);
    answer = true;
    assert.equal(await readFirstFrame({ path: join(root, 'outside.png') }, place), DATA_URL);
  });

  it('refuses a file over the limit (by its size, before reading), a non-image, and a folder', async () => {
    await writeFile(join(workspace, 'big.png'), Buffer.concat([PNG, Buffer.alloc(MAX_FIRST_FRAME_BYTES)]));
    await assert.rejects(readFirstFrame({ path: 'big.png' }, place), /a first frame may be up to 5(\.0)? MB/);
    await writeFile(join(workspace, 'notes.png'), 'not an image');
    await assert.rejects(readFirstFrame({ path: 'notes.png' }, place), /not a PNG, JPEG, WebP or GIF image/);
    await assert.rejects(readFirstFrame({ path: '.' }, place), /folder/);
    assert.deepEqual(questions, []);
  });

  it('attached bytes become a data URL by what they are, not by a label', async () => {
    assert.equal(await readFirstFrame({ data: new Uint8Array(PNG) }, place), DATA_URL);
    await assert.rejects(readFirstFrame({ data: new Uint8Array([1, 2, 3]) }, place), /attached image is not a PNG/);
  });

  it('goes at the spec\'s input.img_url, and each dialect sends it where its gateway takes it', async () => {
    const frame = await readFirstFrame({ path: 'frame.png' }, place);
    const request = buildVideoRequest({ prompt: 'the logo spins', model: 'model-video', firstFrame: frame }, { sourceVideoField: 'input.video_url', extraParameters: {} });
    assert.deepEqual(request.input, { prompt: 'the logo spins', img_url: DATA_URL });
    const ctx = { baseUrl: 'https://gw.example.com/v1', now: 0 };
    const bodies = Object.fromEntries((['spec', 'openai', 'openrouter', 'xai', 'dashscope'] as DialectName[]).map((name) => [name, JSON.parse(dialectOf(name).submit({ model: 'model-video', prompt: 'the logo spins', firstFrame: frame }, ctx).body!)]));
    assert.equal(bodies.spec.input.img_url, DATA_URL);
    assert.equal(bodies.openai.input_reference, DATA_URL);
    assert.deepEqual(bodies.openrouter.frame_images, [{ type: 'image_url', image_url: { url: DATA_URL }, frame_type: 'first_frame' }]);
    assert.deepEqual(bodies.xai.image, { url: DATA_URL });
    assert.equal(bodies.dashscope.input.img_url, DATA_URL);
    // Without a frame, no dialect sends one.
    const plain = (['spec', 'openai', 'openrouter', 'xai', 'dashscope'] as DialectName[]).map((name) => dialectOf(name).submit({ model: 'm', prompt: 'p' }, ctx).body!);
    for (const body of plain) assert.doesNotMatch(body, /img_url|input_reference|frame_images|"image"/);
  });
});
