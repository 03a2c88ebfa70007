import * as assert from 'node:assert/strict';
import { GatewayError } from '../../../src/gateway/errors';
import { adviceFor, AdvisedError, failureKind, SET_API_KEY } from '../../../src/ui/core/errorAdvice';
import { videoCalls } from '../../../src/videos/core/videoCalls';
import { classifyPollError, MissingApiKeyError } from '../../../src/videos/core/errors';

describe('the one error vocabulary (ui/core/errorAdvice.ts)', () => {
  const cases: Array<[string, object, ReturnType<typeof failureKind>]> = [
    ['401', { status: 401, message: 'bad key' }, 'auth'],
    ['403', { status: 403, message: 'disabled' }, 'forbidden'],
    ['429', { status: 429, retryAfterMs: 1000, message: '' }, 'rate_limit'],
    ['aborted', { status: 0, code: 'aborted', message: '' }, 'aborted'],
    ['network', { status: 0, code: 'network', message: '' }, 'network'],
    ['timeout', { code: 'timeout', message: '' }, 'timeout'],
    ['cut-off stream', { code: 'stream_interrupted', message: '' }, 'interrupted'],
    ['too large', { code: 'too_large', message: '' }, 'bad_response'],
    ['unreadable answer', { status: 200, code: 'bad_response', message: '' }, 'bad_response'],
    ['404', { status: 404, message: '' }, 'not_found'],
    ['502', { status: 502, message: '' }, 'server'],
    ['422', { status: 422, message: '' }, 'bad_request'],
    ['a plain Error', new Error('boom'), 'other'],
  ];

  it('names each failure once, and adviceFor words it by that name', () => {
    for (const [what, error, kind] of cases) {
      assert.equal(failureKind(error), kind, what);
      assert.equal(adviceFor(error).kind, kind, what);
    }
    assert.equal(failureKind(new MissingApiKeyError('https://gw.test')), 'auth', 'no key at all is a refused key');
  });

  it('the video poller reads failures by the same names', () => {
    const poll = cases.map(([what, error]) => [what, classifyPollError(error as never)]);
    assert.deepEqual(Object.fromEntries(poll), {
      '401': 'auth',
      '403': 'auth',
      '429': 'rate_limited',
      aborted: 'aborted',
      network: 'transient',
      timeout: 'transient',
      'cut-off stream': 'transient',
      'too large': 'transient',
      'unreadable answer': 'transient',
      '404': 'not_found',
      '502': 'transient',
      '422': 'transient',
      'a plain Error': 'transient',
    });
  });

  it('warns that paid work may have been done only when the answer was lost', () => {
    const lost = new GatewayError({ status: 0, code: 'network', message: 'The connection broke.', outcomeUnknown: true });
    assert.equal(
      adviceFor(lost, { origin: 'http://gw.test', paidFor: 'the image' }).message,
      'The request reached the gateway, which may have made (and charged for) the image, but the answer was lost. Cannot reach http://gw.test. The connection broke.',
    );
    assert.equal(adviceFor({ status: 0, code: 'network', message: 'refused' }, { origin: 'http://gw.test', paidFor: 'the image' }).message, 'Cannot reach http://gw.test. refused.');
  });

  it('says what a refusal paused, and offers a key as the way to resume', () => {
    const disabled = adviceFor({ status: 403, message: 'Key disabled' }, { origin: 'http://gw.test', paused: 'Video status checks' });
    assert.equal(disabled.message, 'Video status checks are paused. Key disabled or no access to this resource. Key disabled.');
    assert.deepEqual(disabled.actions.map((a) => a.command), ['modelGateway.rotateApiKey', 'modelGateway.listModels']);
    const refused = adviceFor({ status: 401, message: '' }, { origin: 'http://gw.test', paused: 'Video status checks' });
    assert.deepEqual(refused.actions.map((a) => a.command), ['modelGateway.setApiKey']);
  });

  it('is one taxonomy: a GatewayError\'s kind is the kind advice is worded by, for every status and code', () => {
    const statuses = [0, 200, 400, 401, 403, 404, 408, 409, 429, 500, 503];
    const codes = ['timeout', 'aborted', 'stream_interrupted', 'bad_response', 'too_large', 'network', 'server_error'];
    for (const status of statuses) {
      for (const code of codes) {
        for (const fromServer of [false, true]) {
          const error = new GatewayError({ status, code, message: 'm', fromServer });
          assert.equal(error.kind, failureKind(error), `${status} ${code} ${fromServer}`);
          assert.equal(adviceFor(error).kind, error.kind, `${status} ${code} ${fromServer}`);
        }
      }
    }
    assert.equal(failureKind(new GatewayError({ status: 200, code: 'server_error', message: 'in the stream', fromServer: true })), 'upstream');
    assert.equal(failureKind(new Error('plain')), 'other');
  });

  it('carries advice as data through a call: the video feature\'s submit keeps the buttons, not only the words', async () => {
    const port = videoCalls({ access: async () => ({ ok: false, missing: 'key', origin: 'https://gw.example' }) } as never);
    const error = await port.submit({ prompt: 'a cat' }).then(() => assert.fail('sent'), (e: unknown) => e);
    assert.ok(error instanceof AdvisedError, 'the advice travels as data');
    const advice = adviceFor(error);
    assert.equal(advice.kind, 'auth');
    assert.deepEqual(advice.actions, [SET_API_KEY]);
    assert.equal((error as Error).message, advice.message);
  });
});
