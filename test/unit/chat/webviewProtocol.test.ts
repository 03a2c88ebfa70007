// The one way webview messages are checked (src/chatProtocol/webviewProtocol.ts): strict on receipt, trimmed on
// sending, optional fields, and a request's reply checked against the request it answers.
import * as assert from 'node:assert/strict';
import { exactly, optional, PageRequests, ProtocolPort, replyShape, type Shapes } from '../../../src/chatProtocol/webviewProtocol';
import { isCount } from '../../../src/chatProtocol/validate';

type FromPage = { type: 'ask'; requestId: number; n: number };
type ToPage = { type: 'note'; text: string; count?: number } | { type: 'reply'; requestId: number; reply?: unknown; error?: string };
const REPLIES = { ask: exactly((v): v is { ok: boolean } => typeof v === 'object' && v !== null && Object.keys(v).length === 1 && typeof (v as { ok?: unknown }).ok === 'boolean') };
const SHAPES: { page: Shapes<FromPage>; host: Shapes<ToPage> } = {
  page: { ask: { requestId: exactly(isCount), n: exactly(isCount) } },
  host: { note: { text: (v) => (typeof v === 'string' ? v.slice(0, 5) : undefined), count: optional(exactly(isCount)) }, reply: replyShape(REPLIES) },
};

describe('webview protocol', () => {
  it('receives only what the protocol allows, and logs what it drops', () => {
    const warnings: string[] = [];
    const port = new ProtocolPort<FromPage, ToPage>('Test', SHAPES, () => undefined, { warn: (m) => warnings.push(m), error: (m) => warnings.push(m) });
    assert.deepEqual(port.receive({ type: 'ask', requestId: 1, n: 2 }), { type: 'ask', requestId: 1, n: 2 });
    assert.equal(port.receive({ type: 'ask', requestId: 1, n: 2, extra: 1 }), undefined);
    assert.equal(port.receive({ type: 'ask', requestId: -1, n: 2 }), undefined);
    assert.equal(port.receive({ type: 'note', text: 'x' }), undefined, 'a host message is not a page message');
    assert.deepEqual(warnings, ['Test: dropped a message from the webview (ask: unexpected field).', 'Test: dropped a message from the webview (ask: bad requestId).', 'Test: dropped a message from the webview (unknown type "note").']);
  });

  it('sends messages trimmed to what the page accepts, optional fields only when present', () => {
    const sent: ToPage[] = [];
    const warnings: string[] = [];
    const port = new ProtocolPort<FromPage, ToPage>('Test', SHAPES, (m) => sent.push(m), { warn: (m) => warnings.push(m), error: (m) => warnings.push(m) });
    port.send({ type: 'note', text: 'hello world' });
    port.send({ type: 'note', text: 'hi', count: 3 });
    port.send({ type: 'note', text: 'hi', count: -3 });
    assert.deepEqual(sent, [{ type: 'note', text: 'hello' }, { type: 'note', text: 'hi', count: 3 }, { type: 'note', text: 'hi' }]);
    assert.deepEqual(warnings, ['Test: trimmed note to what the webview accepts (an over-long or malformed field).'], 'logged once per type');
  });

  it('settles a request with the reply its protocol declares for it, else with an error', async () => {
    const posted: unknown[] = [];
    const requests = new PageRequests<{ ask: { ok: boolean } }>((m) => posted.push(m), REPLIES);
    const first = requests.request('ask', { n: 1 });
    const second = requests.request('ask', { n: 2 });
    const third = requests.request('ask', { n: 3 });
    assert.deepEqual(posted, [{ type: 'ask', requestId: 1, n: 1 }, { type: 'ask', requestId: 2, n: 2 }, { type: 'ask', requestId: 3, n: 3 }]);
    assert.equal(requests.settle({ type: 'reply', requestId: 9, reply: { ok: true } }), false, 'no such request');
    assert.ok(requests.settle({ type: 'reply', requestId: 2, reply: { ok: true } }));
    assert.ok(requests.settle({ type: 'reply', requestId: 1, reply: { sent: true } }));
    assert.ok(requests.settle({ type: 'reply', requestId: 3, error: 'failed' }));
    assert.deepEqual(await second, { reply: { ok: true } });
    assert.match(JSON.stringify(await first), /does not fit the protocol/);
    assert.deepEqual(await third, { error: 'failed' });
    assert.equal(requests.settle({ type: 'reply', requestId: 2, reply: { ok: true } }), false, 'answered once');
  });
});
