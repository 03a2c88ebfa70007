// Diagnose Models: each model's kind and why, its place in VS Code's picker and why not, context window, prices
// and what is sent, as the report says them.
import * as assert from 'node:assert/strict';
import { diagnoseModels, diagnosisMarkdown, pricesOf, type DiagnosisContext } from '../../../src/models/core/modelDiagnosis';
import { explainKind } from '../../../src/models/core/modelKind';
import type { CatalogSnapshot } from '../../../src/models/core/modelCatalog';
import { toCatalogModel } from '../../../src/models/core/modelListing';
import { model } from './fakes';

const CONTEXT: DiagnosisContext = {
  inPicker: new Set(['model-k3']),
  reasoning: { format: 'reasoning_effort', levels: ['low', 'medium', 'high'] },
  panelContextWindow: 128_000,
  paths: { images: '/images/generations', speech: '/audio/speech' },
  defaults: { chat: 'model-k3' },
};

function snapshot(...models: ReturnType<typeof model>[]): CatalogSnapshot {
  return { origin: 'https://gw.example', models: models.map((m) => toCatalogModel(m)), loadedAt: 0 };
}

describe('Diagnose Models', () => {
  it('says why a model has its kind', () => {
    assert.deepEqual(explainKind(model('x', { mode: 'embedding' })), { kind: 'other', source: 'mode', why: 'LiteLLM\'s `mode` is "embedding".' });
    assert.match(explainKind(model('sora-2')).why, /names video/);
    assert.match(explainKind(model('house-model')).why, /taken as chat models/);
    assert.equal(explainKind(model('x', { type: 'chat<script>' })).why, 'The model list says so: `type` names "chat?script?".');
  });

  it('names the field that decided the kind, the per-modality list included', () => {
    const listed = { ...toCatalogModel(model('acme/clip-1'), 'videoModels') };
    assert.match(diagnoseModels({ origin: 'https://gw.example', models: [listed], loadedAt: 0 }, CONTEXT)[0].kindWhy, /`\/videos\/models`/);
    const [d] = diagnoseModels(snapshot(model('x', { architecture: { output_modalities: ['image'] } })), CONTEXT);
    assert.match(d.kindWhy, /`architecture\.output_modalities` is "image"/);
  });

  it('says whether VS Code\'s picker has a model, and why not', () => {
    const [k3, r1, video] = diagnoseModels(snapshot(model('model-k3'), model('model-r1', { reasoning_effort_levels: ['low', 'high'] }), model('model-1.0-video-edit')), CONTEXT);
    assert.equal(k3.inPicker, true);
    assert.equal(r1.inPicker, false);
    assert.match(r1.pickerWhy, /does not list it yet/);
    assert.equal(video.inPicker, false);
    assert.match(video.pickerWhy, /takes chat models, and this is a video model/);
    const unknown = diagnoseModels(snapshot(model('model-k3')), { ...CONTEXT, inPicker: undefined })[0];
    assert.equal(unknown.inPicker, undefined);
  });

  it('gives the context window, prices and what is sent, saying where each comes from', () => {
    const [listed, silent, excluded] = diagnoseModels(
      snapshot(
        model('model-r1', { context_length: 65_536, pricing: { prompt: '0.0000005', completion: '0.000002' }, reasoning_effort_levels: ['low', 'high'] }),
        model('model-k3'),
        model('model-x', { supported_parameters: ['tools'], input_cost_per_token: 0.000003 }),
      ),
      CONTEXT,
    );
    assert.match(listed.contextWindow, /^65,536 tokens \(from the model list\)/);
    assert.equal(listed.prices, '$0.5 per million input tokens, $2 per million output tokens (from the model list).');
    assert.match(listed.sends.join(' '), /low, high as reasoning_effort: "low"/);
    assert.match(silent.contextWindow, /Not given by the model list/);
    assert.equal(silent.prices, 'Not given by the model list.');
    assert.match(silent.sends[0], /default chat model/);
    assert.match(silent.sends.join(' '), /modelGateway\.reasoningEffortLevels/);
    assert.match(excluded.sends.join(' '), /Reasoning effort: none offered/);
    assert.equal(excluded.prices, '$3 per million input tokens (from the model list).');
    assert.equal(pricesOf({ pricing: { prompt: 'free?' } }), 'Not given by the model list.');
  });

  it('writes a report where a hostile id stays text', () => {
    const markdown = diagnosisMarkdown('https://gw.example', diagnoseModels(snapshot(model('evil`\n# [x](command:y)'), model('model-speech-1.0')), CONTEXT));
    assert.match(markdown, /^# Model Gateway: models on https:\/\/gw\.example/);
    assert.match(markdown, /2 models; 1 chat models, 0 of them in VS Code's model picker\./);
    assert.ok(markdown.includes('### `evil??# [x](command:y)`'));
    assert.match(markdown, /## Speech models[\s\S]*POST \/audio\/speech/);
  });
});
