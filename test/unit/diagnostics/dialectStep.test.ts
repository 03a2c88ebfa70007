import * as assert from 'node:assert/strict';
import { dialectStep } from '../../../src/diagnostics/core/dialectStep';
import { renderReport } from '../../../src/diagnostics/core/report';
import { dialectSection } from '../../../src/models/core/dialectSection';
import type { DialectDecision } from '../../../src/videos/core/api';

const litellm: DialectDecision = {
  dialect: 'openai',
  setting: 'auto',
  reason: "LiteLLM's /model/info answered (2 models); LiteLLM serves /videos in the OpenAI shape",
  evidence: ['host gw.example.com names no dialect', '/models: 2 models, none with supported_endpoints, architecture or mode', '/model/info: answered, 2 models'],
  settled: true,
};

describe('diagnostics: the video dialect and why', () => {
  it('Test Connection says the dialect, the reason and what each probe said', () => {
    const step = dialectStep(litellm);
    assert.equal(step.status, 'ok');
    assert.equal(step.title, 'Video dialect');
    assert.match(step.message, /^Video jobs use the openai dialect: LiteLLM's \/model\/info answered \(2 models\)[^]*What the gateway said: host gw\.example\.com names no dialect; \/models: 2 models/);
    const report = renderReport({ baseUrl: 'https://gw.example.com/v1', origin: 'https://gw.example.com', proxy: undefined, startedAt: 0, steps: [step], ok: true });
    assert.match(report, /## Video dialect: ok/);
  });

  it('warns when the decision is not settled, and skips the step when the gateway was not reached', () => {
    const unsettled = dialectStep({ ...litellm, dialect: 'spec', settled: false, reason: 'for now: some of what the gateway says about itself could not be asked' });
    assert.equal(unsettled.status, 'warning');
    assert.match(unsettled.suggestion ?? '', /Edit Profile/);
    assert.equal(dialectStep(undefined).status, 'skipped');
  });

  it("Diagnose Models has a section with the dialect, the reason and the evidence, the gateway's words escaped", () => {
    const text = dialectSection({ ...litellm, evidence: ['/models could not be asked (HTTP 500: <b>*boom*</b>)'] });
    assert.match(text, /## Video dialect\n\nVideo jobs use the `openai` dialect: LiteLLM's \/model\/info answered/);
    assert.ok(!text.includes('<b>') && text.includes('\\*boom\\*'), text);
    assert.match(dialectSection(undefined, 'Not decided: no key'), /Not decided\\: no key/);
  });
});
