// ResultLinkChecks: each link checked once, at most 3 at a time, a failed check is "unavailable" (never "gone"), and
// nothing is reported after the chat closed.
import * as assert from 'node:assert/strict';
import { ResultLinkChecks } from '../../../../src/chat/core/hub/linkChecks';
import type { ResultLinkCheck } from '../../../../src/gateway/resultFetch';
import { settle } from '../../../util/fakeClock';

function pendingChecks() {
  const asked: Array<{ url: string; answer: (check: ResultLinkCheck) => void; fail: (error: Error) => void; signal: AbortSignal }> = [];
  const check = (url: string, signal: AbortSignal) => new Promise<ResultLinkCheck>((answer, fail) => asked.push({ url, answer, fail, signal }));
  return { asked, check };
}

describe('ResultLinkChecks', () => {
  it('checks each link once, at most 3 at a time, and says when one is known', async () => {
    const { asked, check } = pendingChecks();
    const links = new ResultLinkChecks(check);
    const changed: string[] = [];
    links.onDidChange((url) => changed.push(url));
    for (const n of [1, 2, 3, 4, 5, 1]) assert.deepEqual(links.state(`https://g.example/${n}`), { state: 'checking' });
    assert.deepEqual(asked.map((a) => a.url), ['https://g.example/1', 'https://g.example/2', 'https://g.example/3']);
    asked[0].answer({ state: 'available', finalUrl: 'https://cdn.example:8443/1', contentType: 'video/mp4' });
    asked[1].fail(new Error('socket hang up'));
    await settle();
    assert.deepEqual(changed, ['https://g.example/1', 'https://g.example/2']);
    assert.deepEqual(asked.map((a) => a.url).slice(3), ['https://g.example/4', 'https://g.example/5']);
    assert.deepEqual(links.state('https://g.example/2'), { state: 'unavailable', message: 'socket hang up' }, 'a check that throws is no proof the link is gone');
    assert.deepEqual(links.playableOrigins(), ['https://cdn.example:8443']);

    links.dispose();
    assert.ok(asked.every((a) => a.signal.aborted), 'closing the chat cancels the checks');
    asked[2].answer({ state: 'gone', status: 410, message: 'gone' });
    await settle();
    assert.equal(changed.length, 2, 'nothing reported after dispose');
  });
});
