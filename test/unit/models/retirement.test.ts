import * as assert from 'node:assert/strict';
import { retirementOf, retirementText, retiringMarks } from '../../../src/models/core/retirement';
import { buildModelList } from '../../../src/models/core/modelList';
import { diagnoseModels, diagnosisMarkdown, type DiagnosisContext } from '../../../src/models/core/modelDiagnosis';
import { toCatalogModel } from '../../../src/models/core/modelListing';
import { model } from './fakes';

const NOW = Date.parse('2026-11-28T12:00:00Z');

describe('retiring models (shutdown_date, expiration_date)', () => {
  it('marks a model whose shutdown is within 30 days, by date text or Unix seconds, and not one further off', () => {
    assert.deepEqual(retirementOf({ shutdown_date: '2026-12-01' }, NOW), { date: '2026-12-01', days: 3, field: 'shutdown_date' });
    assert.equal(retirementOf({ expiration_date: '2026-12-20T00:00:00Z' }, NOW)?.field, 'expiration_date');
    assert.equal(retirementOf({ shutdown_date: Date.parse('2026-12-10T00:00:00Z') / 1000 }, NOW)?.date, '2026-12-10');
    assert.equal(retirementOf({ shutdown_date: '2027-02-01' }, NOW), undefined);
    assert.equal(retirementOf({ shutdown_date: 'soon' }, NOW), undefined);
    assert.equal(retirementOf({}, NOW), undefined);
    assert.equal(retirementText(retirementOf({ shutdown_date: '2026-11-01' }, NOW)!), 'retired 2026-11-01');
    assert.equal(retirementText(retirementOf({ shutdown_date: '2026-11-29' }, NOW)!), 'retires 2026-11-29 (in 1 day)');
  });

  it('follows the injected clock', () => {
    const raw = { shutdown_date: '2026-12-01' };
    assert.equal(retirementOf(raw, Date.parse('2026-10-01T00:00:00Z')), undefined);
    assert.ok(retirementOf(raw, Date.parse('2026-11-15T00:00:00Z')));
  });

  it('is marked in List Models, Diagnose Models and the pickers\' marks', () => {
    const models = [model('dall-e-3', { shutdown_date: '2026-12-01' }), model('gpt-image-2')].map((m) => toCatalogModel(m));
    const snapshot = { origin: 'https://gw.example', models, loadedAt: 0 };
    const [group] = buildModelList(snapshot, undefined, NOW);
    assert.deepEqual(group.entries.map((e) => [e.id, e.description]), [['dall-e-3', 'retires 2026-12-01 (in 3 days)'], ['gpt-image-2', '']]);
    const context: DiagnosisContext = { inPicker: new Set(), reasoning: { format: 'reasoning_effort', levels: undefined } as never, panelContextWindow: 128_000, paths: { images: '/images/generations', speech: '/audio/speech' }, defaults: {}, now: NOW };
    const markdown = diagnosisMarkdown(snapshot.origin, diagnoseModels(snapshot, context));
    assert.match(markdown, /\*\*Retiring:\*\* Retires 2026-12-01 \(in 3 days\), as its `shutdown_date` says/);
    assert.deepEqual(retiringMarks(models, NOW), { 'dall-e-3': 'retires 2026-12-01 (in 3 days)' });
  });
});
