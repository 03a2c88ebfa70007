import * as assert from 'node:assert/strict';
import type { CatalogSnapshot } from '../../../src/models/core/modelCatalog';
import { toCatalogModel } from '../../../src/models/core/modelListing';
import { buildModelList, describeModel, formatCreated, summarizeModels } from '../../../src/models/core/modelList';
import { model } from './fakes';

function snapshot(...ids: Array<string | [string, Record<string, unknown>]>): CatalogSnapshot {
  const models = ids.map((entry) => (typeof entry === 'string' ? model(entry) : model(entry[0], entry[1])));
  return { origin: 'https://gw.example', models: models.map((m) => toCatalogModel(m)), loadedAt: 0 };
}

describe('model list presentation', () => {
  it('groups chat, video, image, speech, other in that order, keeping the gateway order within a group and dropping empty groups', () => {
    const groups = buildModelList(snapshot('model-speech-1.0', 'model-1.0-video-edit', 'model-5.2', 'whisper-1', 'model-image-1.0', 'model-k3', 'gpt-image-1'), undefined);
    assert.deepEqual(
      groups.map((g) => [g.title, g.entries.map((e) => e.id)]),
      [
        ['Chat models', ['model-5.2', 'model-k3']],
        ['Video models', ['model-1.0-video-edit']],
        ['Image models', ['model-image-1.0', 'gpt-image-1']],
        ['Speech models', ['model-speech-1.0']],
        ['Other models', ['whisper-1']],
      ],
    );
    assert.deepEqual(buildModelList(snapshot('model-k3'), undefined).map((g) => g.kind), ['chat']);
  });

  it('offers chat actions only for chat models and marks the default chat model', () => {
    const [chat, video] = buildModelList(snapshot('model-k3', 'model-5.2', 'model-1.0-video-edit'), 'model-5.2');
    assert.deepEqual(chat.entries.map((e) => e.description), ['', 'default chat model']);
    assert.deepEqual(chat.entries[0].actions, ['startChat', 'setDefaultChat', 'copyId']);
    assert.deepEqual(video.entries[0].actions, ['copyId']);
    assert.equal(video.entries[0].description, '', 'the chat default never marks a video model');
  });

  it('offers Set as Default for image and speech models and marks each kind\'s default', () => {
    const [, image, speech] = buildModelList(snapshot('model-k3', 'model-image-1.0', 'gpt-image-1', 'model-speech-1.0'), { chat: 'model-k3', image: 'gpt-image-1', speech: 'model-k3' });
    assert.deepEqual(image.entries.map((e) => [e.description, e.actions]), [
      ['', ['setDefaultImage', 'copyId']],
      ['default image model', ['setDefaultImage', 'copyId']],
    ]);
    assert.deepEqual(speech.entries.map((e) => [e.description, e.actions]), [['', ['setDefaultSpeech', 'copyId']]], 'a chat id set as speech default marks nothing');
  });

  it('describes owner and creation date, saying when either is missing', () => {
    assert.equal(describeModel({ ownedBy: 'model-gateway', created: 1_700_000_000 }), 'Owner: model-gateway · Created: 2023-11-14');
    assert.equal(describeModel({}), 'Owner: not given · Created: not given');
  });

  it('reads created as Unix seconds, or milliseconds when it can only be that', () => {
    assert.equal(formatCreated(0), undefined);
    assert.equal(formatCreated(1_700_000_000), '2023-11-14');
    assert.equal(formatCreated(1_700_000_000_000), '2023-11-14');
    assert.equal(formatCreated(Number.NaN), undefined);
  });

  it('summarises counts by kind', () => {
    assert.equal(summarizeModels(snapshot('model-k3', 'model-5.2', 'model-1.0-video-edit').models), '3 models (2 chat, 1 video)');
    assert.equal(summarizeModels(snapshot('whisper-1').models), '1 model (1 other)');
    assert.equal(summarizeModels(snapshot('model-k3', 'model-5.2', 'model-1.0-video-edit', 'model-image-1.0', 'model-speech-1.0').models), '5 models (2 chat, 1 video, 1 image, 1 speech)');
    assert.equal(summarizeModels([]), '0 models');
  });
});
