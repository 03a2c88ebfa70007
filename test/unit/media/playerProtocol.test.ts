// The streaming speech player's protocol (webview/player/protocol.ts), checked on both sides: the host takes only
// `ready` with a boolean; the page takes only pieces of base64 within the per-message bound, an http(s) file link
// with an entry id, and a failure whose text is cut to what the page shows.
import assert from 'node:assert/strict';
import { ProtocolPort } from '../../../src/chatProtocol/webviewProtocol';
import { MAX_PIECE_BYTES, parsePlayerRequest, parsePlayerUpdate, pieceMessages, PLAYER_SHAPES, type PlayerRequest, type PlayerUpdate } from '../../../src/webview/player/protocol';
import { streamingPlayerPage } from '../../../src/media/core/mediaHtml';
import { pageCsp } from '../../../src/ui/core/pageCsp';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('speech player protocol', () => {
  it('the host takes ready with a boolean, and nothing else', () => {
    assert.deepEqual(parsePlayerRequest({ type: 'ready', streaming: true }), { type: 'ready', streaming: true });
    for (const bad of [{ type: 'ready' }, { type: 'ready', streaming: 'yes' }, { type: 'ready', streaming: false, extra: 1 }, { type: 'piece', data: 'AAAA' }, 'ready', null]) {
      assert.equal(parsePlayerRequest(bad), undefined, JSON.stringify(bad));
    }
  });

  it('the page takes pieces of base64 within the bound, and refuses anything else', () => {
    assert.deepEqual(parsePlayerUpdate({ type: 'piece', data: 'SUQzBA==' }), { type: 'piece', data: 'SUQzBA==' });
    const atLimit = b64(new Uint8Array(MAX_PIECE_BYTES));
    assert.ok(parsePlayerUpdate({ type: 'piece', data: atLimit }));
    for (const data of ['', 'SUQzBA=', 'SUQz BA=', 'SU*zBA==', 'SUQ=zBA=', b64(new Uint8Array(MAX_PIECE_BYTES + 3)), 42]) {
      assert.equal(parsePlayerUpdate({ type: 'piece', data }), undefined, String(data).slice(0, 20));
    }
    // A long run that a backtracking pattern would choke on is refused in one pass.
    assert.equal(parsePlayerUpdate({ type: 'piece', data: 'A'.repeat(60_000) + '!==' + 'A' }), undefined);
  });

  it('the page takes the kept file only as an http(s) link with an entry id', () => {
    const complete = { type: 'complete', src: 'https://file+.vscode-resource.vscode-cdn.net/store/media/files/mabc123def456-1.mp3', entry: 'mabc123def456' };
    assert.deepEqual(parsePlayerUpdate(complete), complete);
    for (const src of ['javascript:alert(1)', 'data:audio/mpeg;base64,AAAA', 'file:///etc/passwd', 'not a url', '']) assert.equal(parsePlayerUpdate({ ...complete, src }), undefined, src);
    assert.equal(parsePlayerUpdate({ ...complete, entry: '../x' }), undefined);
    assert.deepEqual(parsePlayerUpdate({ type: 'end' }), { type: 'end' });
    assert.equal(parsePlayerUpdate({ type: 'end', now: true }), undefined);
  });

  it('the host trims a long failure to what the page shows, and drops what the page does not take', () => {
    const sent: PlayerUpdate[] = [];
    const warnings: string[] = [];
    const log = { warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) };
    const port = new ProtocolPort<PlayerRequest, PlayerUpdate>('Speech player', PLAYER_SHAPES, (m) => sent.push(m), log);
    port.send({ type: 'failed', message: 'x'.repeat(2000) });
    port.send({ type: 'complete', src: 'javascript:alert(1)', entry: 'mabc' });
    assert.equal(sent.length, 1);
    assert.equal((sent[0] as { message: string }).message.length, 500);
    assert.equal(port.receive({ type: 'ready', streaming: 1 }), undefined);
    assert.equal(warnings.length, 3);
  });

  it('splits audio into pieces of at most MAX_PIECE_BYTES that join back to it', () => {
    const audio = new Uint8Array(MAX_PIECE_BYTES * 2 + 10).map((_, i) => i % 251);
    const messages = pieceMessages(audio, b64);
    assert.equal(messages.length, 3);
    for (const message of messages) assert.ok(parsePlayerUpdate(message));
    assert.deepEqual(Buffer.concat(messages.map((m) => Buffer.from((m as { data: string }).data, 'base64'))), Buffer.from(audio));
  });

  it('the streaming page loads its audio from the resource root and its own MediaSource only', () => {
    const content = streamingPlayerPage('<b>Hi</b>', 'audio/mpeg', { cspSource: 'https://res.test', commands: { save: 's', copy: 'c', open: 'o' } });
    assert.deepEqual(content.media, ['https://res.test', 'blob:']);
    assert.match(content.body, /&lt;b&gt;Hi&lt;\/b&gt;/);
    assert.deepEqual(content.data, { type: 'audio/mpeg', save: 's', open: 'o' });
    const csp = pageCsp({ nonce: 'N', cspSource: 'https://res.test', scripts: true, styles: 'nonce', media: content.media });
    assert.match(csp, /script-src 'nonce-N'; style-src 'nonce-N'; img-src 'none'; media-src https:\/\/res\.test blob:; connect-src 'none'/);
  });
});
