// Refusals that no wait can cure are worded as what they are: whose budget, the gateway's figures, where to act; a
// moderation refusal with the gateway's reason. None of them counts down.
import * as assert from 'node:assert/strict';
import { GatewayError } from '../../../src/gateway/errors';
import { listedAction } from '../../../src/ui/core/adviceActions';
import { adviceFor } from '../../../src/ui/core/errorAdvice';
import { PROFILE_SETTINGS } from '../../../src/ui/core/refusalAdvice';

const BUDGET = new GatewayError({ status: 429, code: '429', type: 'budget_exceeded', message: 'Budget has been exceeded! Current cost: 10.51, Max budget: 10.0', retryAfterMs: 60_000, fromServer: true });

describe('the one error vocabulary: refusals no wait cures', () => {
  it("a LiteLLM budget 429 says whose budget and the gateway's figures, offers the profile's settings, and no countdown", () => {
    const advice = adviceFor(BUDGET, { origin: 'https://litellm.example', profile: 'Work', now: 1000 });
    assert.equal(advice.kind, 'budget');
    assert.ok(advice.message.startsWith('Budget reached on Work: $10.51 of $10.00.'), advice.message);
    assert.ok(advice.message.includes('Budget has been exceeded!'), "keeps the gateway's words");
    assert.equal(advice.retryAt, undefined);
    assert.deepEqual(advice.actions, [PROFILE_SETTINGS]);
  });

  it('without a profile name or figures it names the gateway and keeps its words', () => {
    const advice = adviceFor(new GatewayError({ status: 400, code: '400', message: 'Budget has been exceeded! Team=99c7', fromServer: true }), { origin: 'https://gw.example' });
    assert.equal(advice.kind, 'budget');
    assert.ok(advice.message.startsWith('Budget reached on https://gw.example.'), advice.message);
  });

  it("OpenRouter's 402 is out of credits, with its billing page (an action the chat card allows)", () => {
    const error = new GatewayError({ status: 402, code: '402', message: 'Insufficient credits.', fromServer: true });
    const advice = adviceFor(error, { origin: 'https://openrouter.ai', profile: 'Personal' });
    assert.equal(advice.kind, 'credits');
    assert.ok(advice.message.startsWith('No credits left on Personal.'), advice.message);
    assert.deepEqual(advice.actions[0], { title: 'Open Billing Page', command: 'vscode.open', args: ['https://openrouter.ai/settings/credits'] });
    for (const action of advice.actions) assert.ok(listedAction(action), `${action.title} is listed`);
    assert.equal(adviceFor(error, { origin: 'https://other.example' }).actions[0], PROFILE_SETTINGS);
  });

  it("a moderation refusal shows the gateway's reasons and words", () => {
    const error = new GatewayError({ status: 403, code: '403', message: 'Input was flagged', moderationReasons: ['violence'], fromServer: true });
    const advice = adviceFor(error);
    assert.equal(advice.kind, 'moderation');
    assert.equal(advice.message, "The gateway's moderation refused the request (violence). Input was flagged.");
  });
});
