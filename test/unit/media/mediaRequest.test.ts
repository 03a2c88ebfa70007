// What the media commands accept before anything is sent, and what a failure tells the user.
import * as assert from 'node:assert/strict';
import { GatewayError } from '../../../src/gateway/errors';
import { mediaFailureAdvice } from '../../../src/media/core/mediaAdvice';
import { chooseModel, imageAskOf, speechAskOf } from '../../../src/media/core/mediaRequest';

describe('media requests and advice', () => {
  it('reads command arguments strictly', () => {
    assert.deepEqual(imageAskOf({ prompt: 'p', size: '256x256', count: 2, responseFormat: 'url' }), { prompt: 'p', size: '256x256', count: 2, responseFormat: 'url' });
    assert.deepEqual(speechAskOf({ text: 't', voice: 'nova' }), { text: 't', voice: 'nova' });
    assert.throws(() => imageAskOf({ prompt: 'p', n: 20 }), /Unknown field n/);
    assert.throws(() => imageAskOf({ prompt: 3 }), /prompt as a string/);
    assert.throws(() => imageAskOf({ prompt: 'p', responseFormat: 'png' }), /responseFormat/);
    assert.throws(() => speechAskOf('read this'), /must be an object/);
    assert.throws(() => speechAskOf({ text: 't', voice: 5 }), /voice must be a string/);
  });

  it('chooses the asked model, else the configured one, else the first listed of the kind', () => {
    const listed = [
      { id: 'model-k3', kind: 'chat' as const },
      { id: 'tts-1', kind: 'speech' as const },
      { id: 'model-speech-1.0', kind: 'speech' as const },
    ];
    assert.equal(chooseModel(' asked ', 'configured', listed, 'speech'), 'asked');
    assert.equal(chooseModel(undefined, 'configured', listed, 'speech'), 'configured');
    assert.equal(chooseModel(undefined, undefined, listed, 'speech'), 'tts-1');
    assert.equal(chooseModel(undefined, undefined, listed, 'image'), undefined);
  });

  it('warns that paid work may have been done when the answer was lost, and offers Try Again', () => {
    const retry = { title: 'Try Again', command: 'modelGateway.generateImage', args: [{ prompt: 'p' }] };
    const lost = new GatewayError({ status: 0, code: 'network', message: 'The connection broke.', outcomeUnknown: true });
    const advice = mediaFailureAdvice(lost, { what: 'image', retry, origin: 'http://gw.test' });
    assert.match(advice.message, /^The request reached the gateway, which may have made \(and charged for\) the image, but the answer was lost\. Cannot reach http:\/\/gw\.test/);
    assert.deepEqual(advice.actions[0], retry);
    const refused = mediaFailureAdvice(new GatewayError({ status: 401, code: 'unauthorized', message: 'Invalid API key', fromServer: true }), { what: 'speech', retry });
    assert.deepEqual(refused.actions.map((a) => a.title), ['Set API Key'], 'a refused key is fixed by a key, not by trying again');
    assert.equal(mediaFailureAdvice(new GatewayError({ status: 0, code: 'aborted', message: 'x' }), { what: 'image', retry }).kind, 'aborted');
  });
});
