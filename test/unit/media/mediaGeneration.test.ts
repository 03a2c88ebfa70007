// The media core with the real client, the simulator and a history on disk: images (base64 and links) and speech end
// up as checked files in the history; a link that is not an image, a size over the limit, no model and no key each
// fail with their own error and advice.
import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayAccess } from '../../../src/gateway/connection';
import { mediaFailureAdvice } from '../../../src/media/core/mediaAdvice';
import { generateImages, MediaError, synthesizeSpeech, type MediaCoreDeps } from '../../../src/media/core/mediaGeneration';
import { MediaHistory } from '../../../src/media/core/mediaHistory';
import { toCatalogModel } from '../../../src/models/core/modelListing';
import type { MediaDefaults } from '../../../src/settings/settings';
import type { DialectSetting } from '../../../src/settings/profile';
import { realClock } from '../../../src/util/clock';
import { parsePng, parseWav } from '../../util/mediaFiles';
import { simulatorMediaDeps, useSimulatorMedia } from './simulatorMediaDeps';

describe('media core against the simulator', function () {
  this.timeout(20_000);
  const media = useSimulatorMedia();
  let folder: string;
  let history: MediaHistory;
  let settings: Record<string, unknown>;
  let access: () => GatewayAccess;
  let listed: string[];
  let override: Partial<MediaDefaults>;
  let dialect: DialectSetting | undefined;
  let architecture: Record<string, unknown> | undefined;

  const deps = (): MediaCoreDeps => simulatorMediaDeps(media, () => ({ history, listed, settings, override, dialect, architecture, access }));

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'media-core-'));
    history = new MediaHistory({ folder, clock: realClock, limit: () => 100 });
    settings = {};
    override = {};
    dialect = undefined;
    architecture = undefined;
    access = () => ({ ok: true, api: media.client, origin: media.sim.origin });
    listed = ['model-k3', 'model-image-1.0', 'model-speech-1.0'];
  });
  afterEach(async () => {
    history.dispose();
    await rm(folder, { recursive: true, force: true });
  });

  it('keeps base64 images as PNG files, with the first listed image model and the default size', async () => {
    settings['modelGateway.image.size'] = '256x256';
    const { entry, notes } = await generateImages(deps(), { prompt: 'a red kite', count: 2 });
    assert.deepEqual(notes, []);
    assert.equal(entry.model, 'model-image-1.0');
    assert.equal(entry.size, '256x256');
    assert.equal(entry.origin, media.sim.origin);
    assert.equal(entry.files.length, 2);
    for (const file of entry.files) {
      assert.equal(file.contentType, 'image/png');
      assert.equal(parsePng(await readFile(history.filePath(file))).width, 256);
    }
    const sent = media.sim.log.filter((e) => e.path === '/v1/images/generations').at(-1)!;
    assert.deepEqual(sent.body, { model: 'model-image-1.0', prompt: 'a red kite', n: 2, size: '256x256', response_format: 'b64_json' });
  });

  it('fetches linked images at once and keeps them, with their link', async () => {
    const { entry } = await generateImages(deps(), { prompt: 'a kite', size: '256x256', responseFormat: 'url' });
    const [file] = entry.files;
    assert.match(file.sourceUrl ?? '', new RegExp(`^${media.sim.origin}/files/img_`));
    assert.equal(parsePng(await readFile(history.filePath(file))).height, 256);
  });

  it("asks under a profile with that profile's default model, else the first its own gateway lists (a chat's /image and /speak)", async () => {
    // The active profile's defaults name models this gateway does not have: asking with them would fail.
    const byProfile: Record<string, { image?: string; speech?: string; listed: string[] }> = {
      'p-work': { image: 'model-image-1.0', listed: ['model-k3', 'model-speech-1.0'] },
      default: { image: 'model-image-elsewhere', speech: 'model-speech-elsewhere', listed: ['model-k3'] },
    };
    const underProfiles: MediaCoreDeps = {
      ...deps(),
      models: { load: async (profile) => ({ origin: media.sim.origin, loadedAt: 0, models: byProfile[profile ?? 'default'].listed.map((id) => toCatalogModel({ id, object: 'model' })) }) },
      settings: (profile) => ({ ...deps().settings(), imageModel: byProfile[profile ?? 'default'].image, speechModel: byProfile[profile ?? 'default'].speech }),
    };
    const image = await generateImages(underProfiles, { prompt: 'a kite', size: '256x256' }, { profile: 'p-work' });
    assert.equal(image.entry.model, 'model-image-1.0', "Work's default image model, not the active profile's");
    const speech = await synthesizeSpeech(underProfiles, { text: 'hello' }, { profile: 'p-work' });
    assert.equal(speech.model, 'model-speech-1.0', "Work sets no speech model: the first speech model Work's gateway lists");
    await assert.rejects(generateImages(underProfiles, { prompt: 'a kite', size: '256x256' }), /model-image-elsewhere/, 'without a profile, the active one');
  });

  it("fetches a linked image with the key of the profile it was asked under (a chat's own), not the active profile's", async () => {
    // Two profiles on one origin, each with its own key: the link goes with the key its request went with.
    const keyOf = (profile?: string) => (profile === 'p-work' ? 'sk-work-0000000001' : 'sk-default-000000002');
    const asked: Array<string | undefined> = [];
    const withProfiles: MediaCoreDeps = {
      ...deps(),
      connection: {
        origin: media.sim.origin,
        access: async (profile) => ({ ok: true, api: media.client, origin: media.sim.origin, profile: profile ?? 'default' }),
        resultFetchOptions: async (profile) => {
          asked.push(profile);
          return { credentials: { origin: media.sim.origin, headers: { authorization: `Bearer ${keyOf(profile)}` } } };
        },
      },
    };
    media.sim.clearLog();
    await generateImages(withProfiles, { prompt: 'a kite', size: '256x256', responseFormat: 'url' }, { profile: 'p-work' });
    assert.deepEqual(asked, ['p-work']);
    const fetched = media.sim.log.filter((e) => e.path.startsWith('/files/'));
    assert.deepEqual(fetched.map((e) => e.authorization?.slice(-4)), ['0001'], "the link went with the Work profile's key");
  });

  it('refuses a link whose body is not an image, whatever its Content-Type says, and keeps nothing', async () => {
    const error = await generateImages(deps(), { prompt: '[not-image] a kite', size: '256x256', responseFormat: 'url' }).catch((e: unknown) => e);
    assert.ok(error instanceof MediaError, String(error));
    assert.equal(error.code, 'not_image');
    assert.match(error.message, /none could be kept\. Image 1: its link sent an HTML page .* instead of an image\./);
    assert.deepEqual(history.entries(), []);
  });

  it('refuses an image over the size limit, with the setting to change as the way forward', async () => {
    override = { maxBytes: 20_000 };
    const error = await generateImages(deps(), { prompt: 'a kite', size: '512x512', responseFormat: 'url' }).catch((e: unknown) => e);
    assert.ok(error instanceof MediaError);
    assert.equal(error.code, 'too_large');
    const advice = mediaFailureAdvice(error, { what: 'image' });
    assert.deepEqual(advice.actions.map((a) => a.args), [['modelGateway.media.maxSizeMB']]);
    assert.match(error.message, /Image 1: The file at .* is larger than the limit of 19\.5 KB\./);
    const b64 = await generateImages(deps(), { prompt: 'a kite', size: '512x512' }).catch((e: unknown) => e);
    assert.equal((b64 as { code?: string }).code, 'too_large', 'a base64 answer over the limit is refused by the media.client');
  });

  it('on an openrouter-dialect profile, asks /chat/completions for the image and keeps it with the text as its caption', async () => {
    dialect = 'openrouter';
    media.sim.clearLog();
    const { entry, notes } = await generateImages(deps(), { prompt: 'a red kite' });
    assert.deepEqual(notes, []);
    const [file] = entry.files;
    assert.equal(file.contentType, 'image/png');
    assert.equal(file.caption, 'Here is: a red kite');
    assert.equal(parsePng(await readFile(history.filePath(file))).width, 256);
    assert.deepEqual(media.sim.log.map((e) => e.path), ['/v1/chat/completions'], 'nothing went to /images/generations');
    const sent = media.sim.log[0].body as Record<string, unknown>;
    assert.deepEqual(sent.modalities, ['image', 'text']);
    assert.deepEqual(sent.messages, [{ role: 'user', content: 'a red kite' }]);
  });

  it("goes through chat when the model list says the model outputs images (architecture.output_modalities), whatever the dialect", async () => {
    architecture = { input_modalities: ['text', 'image'], output_modalities: ['image', 'text'] };
    media.sim.clearLog();
    await generateImages(deps(), { prompt: 'a kite', model: 'model-image-1.0' });
    assert.deepEqual(media.sim.log.map((e) => e.path), ['/v1/chat/completions']);
    architecture = { output_modalities: ['text'] };
    media.sim.clearLog();
    await generateImages(deps(), { prompt: 'a kite', model: 'model-image-1.0', size: '256x256' });
    assert.deepEqual(media.sim.log.map((e) => e.path), ['/v1/images/generations'], 'a model that outputs text only keeps the images endpoint');
  });

  it('keeps speech as a WAV file with the configured voice', async () => {
    settings['modelGateway.speech.voice'] = 'onyx';
    settings['modelGateway.speech.format'] = 'wav';
    const entry = await synthesizeSpeech(deps(), { text: 'Read this aloud, please.' });
    assert.equal(entry.kind, 'speech');
    assert.equal(entry.voice, 'onyx');
    assert.equal(entry.model, 'model-speech-1.0');
    assert.equal(entry.files[0].contentType, 'audio/wav');
    assert.equal(parseWav(await readFile(history.filePath(entry.files[0]))).channels, 1);
  });

  it('says how to set a model when the gateway lists none of the kind', async () => {
    listed = ['model-k3'];
    const error = await synthesizeSpeech(deps(), { text: 'hi' }).catch((e: unknown) => e);
    assert.ok(error instanceof MediaError);
    assert.equal(error.code, 'no_model');
    assert.match(error.message, /lists no speech model\. Set modelGateway\.speech\.model/);
    settings['modelGateway.speech.model'] = 'model-speech-1.0';
    assert.equal((await synthesizeSpeech(deps(), { text: 'hi' })).model, 'model-speech-1.0', 'the configured model needs no list');
  });

  it('sends nothing without a key, and hands on the connection\'s advice', async () => {
    access = () => ({ ok: false, missing: 'key', origin: media.sim.origin });
    media.sim.clearLog();
    const error = await generateImages(deps(), { prompt: 'x' }).catch((e: unknown) => e);
    assert.ok(error instanceof MediaError);
    assert.equal(error.code, 'missing_access');
    assert.deepEqual(mediaFailureAdvice(error, { what: 'image' }).actions.map((a) => a.command), ['modelGateway.setApiKey']);
    assert.equal(media.sim.log.length, 0);
  });

  it('sends nothing when the history cannot be written, and names its folder', async () => {
    await history.ready;
    await rm(history.filesFolder, { recursive: true });
    await writeFile(history.filesFolder, 'not a folder'); // every write into it fails, as on a read-only folder
    media.sim.clearLog();
    for (const call of [() => generateImages(deps(), { prompt: 'a red kite' }), () => synthesizeSpeech(deps(), { text: 'Hello.' })]) {
      await assert.rejects(call(), (error: Error) => {
        assert.ok(error instanceof MediaError && error.code === 'storage', String(error));
        assert.ok(error.message.includes(history.filesFolder), error.message);
        return true;
      });
    }
    assert.deepEqual(media.sim.log.filter((entry) => entry.method === 'POST'), [], 'no paid request left');
  });

  it('checks the request before sending it', async () => {
    media.sim.clearLog();
    for (const ask of [{ prompt: '  ' }, { prompt: 'x', size: 'big' }, { prompt: 'x', count: 11 }]) {
      await assert.rejects(generateImages(deps(), ask), { name: 'MediaRequestError' });
    }
    await assert.rejects(synthesizeSpeech(deps(), { text: 'x'.repeat(4097) }), /at most 4096/);
    assert.equal(media.sim.log.length, 0);
  });
});
