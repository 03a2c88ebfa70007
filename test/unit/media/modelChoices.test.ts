// Generate Image's model picker marks a model retiring within 30 days (issue 35), with the same words as the chat's
// pickers, List Models and Diagnose Models (models/core/retirement.ts), beside "default".
import * as assert from 'node:assert/strict';
import { mediaModelChoices } from '../../../src/media/core/modelChoices';
import { toCatalogModel } from '../../../src/models/core/modelListing';
import { modelPickItems } from '../../../src/ui/core/modelPickItems';

const NOW = Date.parse('2026-11-28T12:00:00Z');

describe('media model choices: retiring models are marked (issue 35)', () => {
  const snapshot = {
    origin: 'https://gw.example',
    loadedAt: NOW,
    models: [
      toCatalogModel({ id: 'dall-e-3', object: 'model', shutdown_date: '2026-12-01', architecture: { output_modalities: ['image'] } }),
      toCatalogModel({ id: 'gpt-image-2', object: 'model', architecture: { output_modalities: ['image'] } }),
      toCatalogModel({ id: 'tts-old', object: 'model', shutdown_date: '2026-11-01', architecture: { output_modalities: ['audio'] } }),
    ],
  };

  it("offers the kind's models, the default first, with the retiring ones' marks", () => {
    const image = mediaModelChoices(snapshot, 'image', 'gpt-image-2', NOW);
    assert.deepEqual(image.ids, ['gpt-image-2', 'dall-e-3']);
    assert.deepEqual(image.marks, { 'dall-e-3': 'retires 2026-12-01 (in 3 days)' });
    assert.deepEqual(mediaModelChoices(snapshot, 'speech', undefined, NOW).marks, { 'tts-old': 'retired 2026-11-01' });
    assert.equal(mediaModelChoices(snapshot, 'image', undefined, Date.parse('2026-10-01T00:00:00Z')).marks, undefined, 'the injected time decides');
    assert.equal(mediaModelChoices(undefined, 'image', 'x', NOW).placeholder, 'The gateway lists no image model; enter one with "Other model id…"');
  });

  it('shows the mark beside the id in the picker, after "default"', () => {
    const marks = { 'dall-e-3': 'retires 2026-12-01 (in 3 days)' };
    assert.deepEqual(modelPickItems(['dall-e-3', 'gpt-image-2'], 'dall-e-3', marks), [
      { label: 'dall-e-3', description: 'default · $(warning) retires 2026-12-01 (in 3 days)' },
      { label: 'gpt-image-2' },
    ]);
    assert.deepEqual(modelPickItems(['gpt-image-2', 'dall-e-3'], 'gpt-image-2', marks), [
      { label: 'gpt-image-2', description: 'default' },
      { label: 'dall-e-3', description: '$(warning) retires 2026-12-01 (in 3 days)' },
    ]);
    assert.deepEqual(modelPickItems(['constructor'], undefined, marks), [{ label: 'constructor' }], 'an id is looked up as data, never on the prototype');
  });
});
