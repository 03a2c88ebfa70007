import * as assert from 'node:assert/strict';
import {
  answersFromArgument,
  buildVideoRequest,
  modelChoices,
  parseDuration,
  parseFieldPath,
  validatePrompt,
  validateSourceVideoUrl,
  VideoRequestError,
  type RequestDefaults,
} from '../../../src/videos/core/videoRequest';
import { toCatalogModel } from '../../../src/models/core/modelListing';

const defaults: RequestDefaults = {
  model: 'model-1.0-video-edit',
  resolutions: ['1280x720', '1920x1080'],
  duration: 5,
  sourceVideoField: 'input.video_url',
  extraParameters: {},
};

describe('videoRequest', () => {
  describe('buildVideoRequest', () => {
    it('puts prompt, resolution and duration where the spec shows them', () => {
      const request = buildVideoRequest({ prompt: 'A cat\non a boat', model: 'model-1.0-video-edit', resolution: '1280x720', duration: 5 }, defaults);
      assert.deepEqual(request, { model: 'model-1.0-video-edit', input: { prompt: 'A cat\non a boat' }, parameters: { resolution: '1280x720', duration: 5 } });
    });

    it('sends the source video as input.video_url by default', () => {
      const request = buildVideoRequest({ prompt: 'p', model: 'm', videoUrl: ' https://cdn.example.com/a.mp4?sig=a%2Fb ' }, defaults);
      assert.deepEqual(request.input, { prompt: 'p', video_url: 'https://cdn.example.com/a.mp4?sig=a%2Fb' });
      assert.equal(request.parameters, undefined);
    });

    it('maps the source video to a nested dotted path', () => {
      const request = buildVideoRequest({ prompt: 'p', model: 'm', videoUrl: 'https://x.test/v.mp4' }, { ...defaults, sourceVideoField: 'input.source.video.url' });
      assert.deepEqual(request.input, { prompt: 'p', source: { video: { url: 'https://x.test/v.mp4' } } });
    });

    it('can put the source video into parameters, next to the extra parameters', () => {
      const request = buildVideoRequest(
        { prompt: 'p', model: 'm', duration: 3, videoUrl: 'https://x.test/v.mp4' },
        { sourceVideoField: 'parameters.reference.url', extraParameters: { seed: 7, reference: { strength: 0.5 } } },
      );
      assert.deepEqual(request.parameters, { seed: 7, reference: { strength: 0.5, url: 'https://x.test/v.mp4' }, duration: 3 });
    });

    it('adds extra parameters without letting them override the chosen resolution and duration', () => {
      const extra = { seed: 42, resolution: '640x480', duration: 99, style: { look: 'film' } };
      const request = buildVideoRequest({ prompt: 'p', model: 'm', resolution: '1920x1080', duration: 2.5 }, { ...defaults, extraParameters: extra });
      assert.deepEqual(request.parameters, { seed: 42, resolution: '1920x1080', duration: 2.5, style: { look: 'film' } });
      assert.deepEqual(extra.style, { look: 'film' }, 'the setting object itself is not changed');
      assert.notEqual(request.parameters!.style, extra.style);
    });

    it('keeps extra parameters when no resolution or duration was chosen', () => {
      const request = buildVideoRequest({ prompt: 'p', model: 'm' }, { ...defaults, extraParameters: { resolution: '640x480' } });
      assert.deepEqual(request.parameters, { resolution: '640x480' });
    });

    it('ignores a __proto__ member in extra parameters', () => {
      const extra = JSON.parse('{"__proto__": {"polluted": true}, "seed": 1}') as Record<string, unknown>;
      const request = buildVideoRequest({ prompt: 'p', model: 'm' }, { ...defaults, extraParameters: extra });
      assert.deepEqual(Object.keys(request.parameters!), ['seed']);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });

    it('refuses an empty prompt, a bad duration and a non-http source video', () => {
      assert.throws(() => buildVideoRequest({ prompt: '  \n', model: 'm' }, defaults), VideoRequestError);
      assert.throws(() => buildVideoRequest({ prompt: 'p', model: 'm', duration: 0 }, defaults), /more than 0/);
      assert.throws(() => buildVideoRequest({ prompt: 'p', model: 'm', duration: 601 }, defaults), /at most 600/);
      assert.throws(() => buildVideoRequest({ prompt: 'p', model: 'm', videoUrl: 'file:///etc/passwd' }, defaults), /http or https/);
      assert.throws(() => buildVideoRequest({ prompt: 'p', model: ' ' }, defaults), /model/);
    });

    it('says so when the source path runs into a non-object extra parameter', () => {
      assert.throws(
        () => buildVideoRequest({ prompt: 'p', model: 'm', videoUrl: 'https://x.test/v.mp4' }, { sourceVideoField: 'parameters.ref.url', extraParameters: { ref: 'abc' } }),
        /ref is already set/,
      );
    });
  });

  describe('parseFieldPath', () => {
    it('splits a dotted path', () => {
      assert.deepEqual(parseFieldPath('input.video_url'), ['input', 'video_url']);
      assert.deepEqual(parseFieldPath(' parameters.a.b '), ['parameters', 'a', 'b']);
    });

    it('refuses paths outside input and parameters, reserved fields and unsafe segments', () => {
      for (const bad of ['video_url', 'model', 'input', 'input.prompt', 'parameters.duration', 'parameters.resolution', 'input..x', 'input.__proto__.x', 'input.constructor', 'other.x', '']) {
        assert.throws(() => parseFieldPath(bad), VideoRequestError, bad);
      }
    });
  });

  describe('validation helpers', () => {
    it('parses durations in seconds', () => {
      assert.deepEqual(parseDuration('5'), { value: 5 });
      assert.deepEqual(parseDuration(' 2.5 '), { value: 2.5 });
      for (const bad of ['', 'five', '-1', '0', '1e3', '601', '5s']) assert.ok('error' in parseDuration(bad), bad);
    });

    it('checks prompts and source URLs', () => {
      assert.equal(validatePrompt('a dog'), undefined);
      assert.ok(validatePrompt(''));
      assert.ok(validatePrompt('x'.repeat(40_000)));
      assert.equal(validateSourceVideoUrl(''), undefined);
      assert.equal(validateSourceVideoUrl('http://127.0.0.1:9/a.mp4'), undefined);
      assert.ok(validateSourceVideoUrl('not a url'));
      assert.ok(validateSourceVideoUrl('javascript:alert(1)'));
    });
  });

  describe('answersFromArgument', () => {
    it('fills model, resolution and duration from settings', () => {
      assert.deepEqual(answersFromArgument({ prompt: 'a fox' }, defaults), { prompt: 'a fox', model: 'model-1.0-video-edit', resolution: '1280x720', duration: 5 });
    });

    it('takes every member given', () => {
      const answers = answersFromArgument({ prompt: 'p', model: 'x', resolution: '720x1280', duration: 8, videoUrl: 'https://a.test/v.mp4' }, defaults);
      assert.deepEqual(answers, { prompt: 'p', model: 'x', resolution: '720x1280', duration: 8, videoUrl: 'https://a.test/v.mp4' });
    });

    it('names the bad member', () => {
      assert.throws(() => answersFromArgument('a fox', defaults), /takes \{ prompt/);
      assert.throws(() => answersFromArgument({ prompt: 3 }, defaults), /prompt must be a string/);
      assert.throws(() => answersFromArgument({ prompt: 'p', duration: '5' }, defaults), /duration must be a number/);
      assert.throws(() => answersFromArgument({ prompt: 'p', duration: -2 }, defaults), /more than 0/);
      assert.throws(() => answersFromArgument({ prompt: 'p', model: '' }, defaults), /model must be/);
      assert.throws(() => answersFromArgument({ prompt: 'p', videoUrl: 'command:x' }, defaults), /http or https/);
    });
  });

  describe('video models', () => {
    const NOW = Date.parse('2026-11-28T12:00:00Z');

    it('marks a retiring video model among those offered, as the chat pickers and List Models do (issue 35)', () => {
      const listed = [
        toCatalogModel({ id: 'veo-old', object: 'model', shutdown_date: '2026-12-01', modalities: ['video'] }),
        toCatalogModel({ id: 'veo-new', object: 'model', shutdown_date: '2027-06-01', modalities: ['video'] }),
        toCatalogModel({ id: 'chat-old', object: 'model', shutdown_date: '2026-12-01' }),
      ];
      assert.deepEqual(modelChoices(listed, 'veo-new', NOW).marks, { 'veo-old': 'retires 2026-12-01 (in 3 days)' }, 'the chat model is not offered, so not marked');
    });

    it('offers the video models with the default first, or every model when none is recognisable', () => {
      const models = [
        { id: 'model-k3', kind: 'chat' },
        { id: 'a-video', kind: 'video' },
        { id: 'model-1.0-video-edit', kind: 'video' },
      ];
      assert.deepEqual(modelChoices(models, 'model-1.0-video-edit', NOW), { ids: ['model-1.0-video-edit', 'a-video'], recognised: true, marks: {} });
      assert.deepEqual(modelChoices([{ id: 'x', kind: 'chat' }], 'default-model', NOW), { ids: ['default-model', 'x'], recognised: false, marks: {} });
    });

    it("reads the catalog's kind, as the media pickers do: a model its listing marks as video is offered though its id does not say so", () => {
      const listed = [toCatalogModel({ id: 'gen-3', object: 'model', modalities: ['text', 'video'] }), toCatalogModel({ id: 'gen-4', object: 'model', capabilities: { video: true } }), toCatalogModel({ id: 'model-k3', object: 'model', owned_by: 'model-gateway' })];
      assert.deepEqual(modelChoices(listed, 'gen-4', NOW), { ids: ['gen-4', 'gen-3'], recognised: true, marks: {} });
      // A list remembered from an earlier session keeps ids and kinds only: the kind still decides.
      assert.deepEqual(modelChoices([{ id: 'house-model', kind: 'video' }], '', NOW), { ids: ['house-model'], recognised: true, marks: {} });
    });
  });

});
