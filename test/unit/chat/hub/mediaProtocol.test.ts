// The pure parts of the chat hub: reading slash commands, normalising media turns (files and messages), the CSP.
import * as assert from 'node:assert/strict';
import { parseSlash, slashCompletions } from '../../../../src/chatProtocol/slash';
import { cleanMediaTurn, cleanWireMediaTurn } from '../../../../src/chatProtocol/mediaTurn';
import { cleanTurn, repairSession } from '../../../../src/chatProtocol/sessionData';
import { parseHostMessage, parseWebviewMessage } from '../../../../src/chatProtocol/messages';
import { chatCsp, mediaOriginsOf } from '../../../../src/chat/core/hub/csp';
import { defaultSettings, type MediaTurn } from '../../../../src/chatProtocol/session';
import { sessionMarkdown } from '../../../../src/chat/core/markdownText';
import { wireMediaTurn } from '../../../../src/chat/core/hub/wireMedia';
import type { LinkCheckState } from '../../../../src/chat/core/hub/linkChecks';
import type { WireMediaTurn } from '../../../../src/chatProtocol/mediaTurn';

const pickLink = (wire: WireMediaTurn) => [wire.src, wire.linkState, wire.linkProblem];

const IMAGE: MediaTurn = {
  id: 't1',
  role: 'media',
  createdAt: 5,
  kind: 'image',
  content: '/image a lighthouse',
  prompt: 'a lighthouse',
  model: 'model-image-1.0',
  state: 'complete',
  entryId: 'mabc1234',
  fileName: 'mabc1234-0.png',
  contentType: 'image/png',
  url: 'https://cdn.example.com/img/1.png?sig=x',
};

describe('chat hub: slash commands', () => {
  it('reads each command and its text', () => {
    assert.deepEqual(pick(parseSlash('/image a red fox')), { name: 'image', text: 'a red fox' });
    assert.deepEqual(pick(parseSlash('  /VIDEO waves\non rocks ')), { name: 'video', text: 'waves\non rocks' });
    assert.deepEqual(pick(parseSlash('/speak')), { name: 'speak', text: '' });
    assert.deepEqual(pick(parseSlash('/speak say this')), { name: 'speak', text: 'say this' });
  });

  it('leaves plain text, a slash inside a word and a double slash to the chat', () => {
    for (const text of ['hello /image x', '/images are nice?'.replace('/images', 'images'), '//image literally', 'a/b', '/ alone']) assert.equal(parseSlash(text), undefined, text);
    assert.equal(parseSlash('/imagex y')?.ok, false, 'an unknown command is not sent as text by mistake');
  });

  it('says what is wrong with an unknown command or a missing prompt', () => {
    const unknown = parseSlash('/paint a cat');
    assert.ok(unknown && !unknown.ok && /Unknown command \/paint/.test(unknown.problem) && /\/image, \/video, \/speak/.test(unknown.problem));
    const empty = parseSlash('/image   ');
    assert.ok(empty && !empty.ok && /after \/image/.test(empty.problem));
    assert.ok(parseSlash('/video')?.ok === false);
  });

  it('completes a slash word at the start only', () => {
    assert.deepEqual(slashCompletions('/')?.map((c) => c.name), ['image', 'video', 'speak', 'transcribe']);
    assert.deepEqual(slashCompletions('/t')?.map((c) => c.name), ['transcribe']);
    assert.deepEqual(slashCompletions('/v')?.map((c) => c.name), ['video']);
    assert.deepEqual(slashCompletions('/S')?.map((c) => c.name), ['speak']);
    for (const input of ['', 'x', '/x', '/image ', ' /i', 'a /i']) assert.equal(slashCompletions(input), undefined, input);
  });
});

describe('chat hub: media turns', () => {
  it('keeps a well-formed turn as it is, in a session file and as a turn', () => {
    assert.deepEqual(cleanMediaTurn(IMAGE), IMAGE);
    assert.deepEqual(cleanTurn(IMAGE), IMAGE);
    const repaired = repairSession({ turns: [IMAGE, { id: 'u1', role: 'user', createdAt: 0, content: 'hi' }] }, 's1');
    assert.equal(repaired?.repaired, 0);
    assert.deepEqual(repaired?.session.turns[0], IMAGE);
  });

  it('drops hostile or malformed fields, never the turn', () => {
    const hostile = {
      ...IMAGE,
      url: 'javascript:alert(1)',
      entryId: '../../etc/passwd',
      fileName: '../x.png',
      contentType: 'text/html',
      jobKey: 'a/b',
      state: 'weird',
      prompt: 'p'.repeat(20_000),
      extra: 'x',
    };
    const clean = cleanMediaTurn(hostile)!;
    assert.equal(clean.url, undefined);
    assert.equal(clean.entryId, undefined);
    assert.equal(clean.fileName, undefined);
    assert.equal(clean.contentType, undefined);
    assert.equal(clean.jobKey, undefined);
    assert.equal(clean.state, 'failed', 'an unknown state shows as failed, with Regenerate');
    assert.equal(clean.prompt.length, 8000);
    assert.ok(!('extra' in clean));
    assert.equal(cleanMediaTurn({ ...IMAGE, kind: 'hologram' }), undefined);
    assert.equal(cleanMediaTurn({ ...IMAGE, id: '../x' }), undefined);
    assert.equal(cleanMediaTurn({ ...IMAGE, url: 'https://user:pw@example.com/x.png' })?.url, undefined, 'no credentials in links');
  });

  it("keeps a failed turn's advice actions in the session file, and sends the page only their titles", () => {
    const failed = { ...IMAGE, state: 'failed', detail: 'API key missing.', actions: [{ title: 'Set API Key', command: 'modelGateway.setApiKey' }, { title: 'Change the Limit', command: 'workbench.action.openSettings', args: ['modelGateway.media.maxSizeMB'] }] };
    assert.deepEqual(cleanMediaTurn(failed), failed);
    assert.deepEqual(cleanTurn(failed), failed);
    assert.equal(cleanMediaTurn({ ...failed, state: 'complete' })?.actions, undefined, 'only a failed turn offers them');
    assert.deepEqual(cleanMediaTurn({ ...failed, actions: [{ title: 'x' }, 'Open Logs', { command: 'c'.repeat(500) }] })?.actions, undefined, 'malformed ones are dropped');
    const wire = cleanWireMediaTurn({ ...failed, actions: ['Set API Key', { command: 'modelGateway.clearUsage' }, 'x'.repeat(1000)] });
    assert.deepEqual(wire?.actions, ['Set API Key', 'x'.repeat(200)], 'the page accepts titles only');
    assert.ok(parseHostMessage({ type: 'turnUpdated', turn: wire }).ok, 'and takes them exactly');
  });

  it('sends the webview a source it may load, and nothing that names a file', () => {
    const unchecked = () => assert.fail('a kept copy needs no link check');
    const wire = wireMediaTurn(IMAGE, { keptFile: () => ({ path: '/store/files/mabc1234-0.png', contentType: 'image/png' }), webviewSrc: (p) => `https://file%2B.vscode-resource.vscode-cdn.net${p}`, link: unchecked });
    assert.equal(wire.src, 'https://file%2B.vscode-resource.vscode-cdn.net/store/files/mabc1234-0.png');
    assert.ok(!('entryId' in wire) && !('fileName' in wire));
    const parsed = parseHostMessage({ type: 'turnAdded', turn: wire });
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.reason);
    // The kept copy is gone: where the gateway's link leads once the extension has checked it; neither: no source.
    const cdn = 'https://cdn2.example.net/1.png?t=1';
    const via = (link: LinkCheckState) => wireMediaTurn(IMAGE, { keptFile: () => undefined, webviewSrc: () => 'x', link: () => link });
    assert.equal(via({ state: 'available', finalUrl: cdn, contentType: 'image/png' }).src, cdn);
    assert.equal(via({ state: 'available', finalUrl: cdn, contentType: 'image/png' }).linkState, undefined);
    assert.deepEqual(pickLink(via({ state: 'checking' })), [undefined, 'checking', undefined]);
    const tooLong = via({ state: 'available', finalUrl: `https://cdn2.example.net/${'a'.repeat(20_000)}`, contentType: 'video/mp4' });
    assert.deepEqual([tooLong.src, tooLong.linkState], [undefined, 'unreachable'], 'a source the page would drop is not shown as expired');
    assert.deepEqual(pickLink(via({ state: 'gone', status: 410, message: 'gone (410)' })), [undefined, 'expired', 'gone (410)']);
    assert.deepEqual(pickLink(via({ state: 'unavailable', message: 'HTTP 503' })), [undefined, 'unreachable', 'HTTP 503']);
    assert.ok(parseHostMessage({ type: 'turnUpdated', turn: via({ state: 'unavailable', message: 'HTTP 503' }) }).ok);
    assert.equal(wireMediaTurn({ ...IMAGE, url: undefined }, { keptFile: () => undefined, webviewSrc: () => 'x', link: unchecked }).src, undefined);
  });

  it('refuses a media turn message with a script source', () => {
    const bad = { ...wireMediaTurn(IMAGE, { keptFile: () => undefined, webviewSrc: () => '', link: () => ({ state: 'checking' }) }), src: 'javascript:alert(1)' };
    assert.equal(parseHostMessage({ type: 'turnUpdated', turn: bad }).ok, false);
    assert.equal(cleanWireMediaTurn(bad)?.src, undefined);
    assert.equal(cleanWireMediaTurn({ ...bad, src: 'data:text/html;base64,PHNjcmlwdD4=' })?.src, undefined);
    assert.equal(cleanWireMediaTurn({ ...bad, src: 'data:image/png;base64,iVBORw0KGgo=' })?.src, 'data:image/png;base64,iVBORw0KGgo=');
  });

  it('accepts the new webview messages exactly', () => {
    assert.ok(parseWebviewMessage({ type: 'readAloud', turnId: 't1' }).ok);
    assert.ok(parseWebviewMessage({ type: 'mediaAction', turnId: 't1', action: 'regenerate' }).ok);
    assert.ok(parseWebviewMessage({ type: 'mediaAction', turnId: 't1', action: 'retry' }).ok);
    assert.equal(parseWebviewMessage({ type: 'mediaAction', turnId: 't1', action: 'delete' }).ok, false);
    assert.ok(parseWebviewMessage({ type: 'updateSettings', settings: { ...defaultSettings(), mediaModels: { image: 'model-image-1.0', video: '', speech: '' } } }).ok);
  });

  it('exports media as links: images as images, the kept file first', () => {
    const session = { id: 's', title: 'T', createdAt: 0, updatedAt: 0, settings: defaultSettings(), turns: [IMAGE, { ...IMAGE, id: 't2', kind: 'video' as const, content: '/video waves', prompt: 'waves [x](y)', url: 'http://127.0.0.1:9/v.mp4' }] };
    const md = sessionMarkdown(session, new Date(0), (turn) => (turn.id === 't1' ? 'file:///store/files/m%20x.png' : turn.url));
    assert.match(md, /!\[Image \(model-image-1\.0\): a lighthouse\]\(<file:\/\/\/store\/files\/m%20x\.png>\)/);
    assert.match(md, /\n\[Video \(model-image-1\.0\): waves \\\[x\\\]\(y\)\]\(<http:\/\/127\.0\.0\.1:9\/v\.mp4>\)/);
  });
});

describe('chat hub: CSP', () => {
  const csp = (origins: string[]) => chatCsp({ nonce: 'n0', cspSource: 'https://*.vscode-cdn.net', mediaOrigins: origins });

  it('allows media only from data:, blob:, the resource root and the given exact origins', () => {
    const policy = csp(['https://cdn.example.com', 'http://127.0.0.1:8123']);
    const directive = (name: string) => policy.split('; ').find((d) => d.startsWith(`${name} `));
    assert.equal(directive('img-src'), 'img-src https://*.vscode-cdn.net data: blob: https://cdn.example.com http://127.0.0.1:8123');
    assert.equal(directive('media-src'), 'media-src https://*.vscode-cdn.net data: blob: https://cdn.example.com http://127.0.0.1:8123');
    assert.equal(directive('default-src'), "default-src 'none'");
    assert.equal(directive('connect-src'), "connect-src 'none'");
  });

  it('never lets an origin widen or break the policy', () => {
    const policy = csp(['https://a.example.com/path', 'https://*', 'https://x.com; script-src *', "'unsafe-inline'", 'javascript:', 'http://u:p@h.com', 'https://ok.example']);
    assert.match(policy, /img-src https:\/\/\*\.vscode-cdn\.net data: blob: https:\/\/ok\.example;/);
    assert.equal((policy.match(/script-src/g) ?? []).length, 1);
  });

  it('takes the origins of the gateway results a session holds, and nothing from text', () => {
    const turns = [IMAGE, { ...IMAGE, id: 't2', url: 'http://127.0.0.1:9/v.mp4?sig=1' }, { id: 'u', role: 'user' as const, createdAt: 0, content: '![x](https://evil.example/x.png)' }];
    assert.deepEqual(mediaOriginsOf(turns), ['http://127.0.0.1:9', 'https://cdn.example.com']);
  });
});

function pick(parsed: ReturnType<typeof parseSlash>): { name: string; text: string } | undefined {
  return parsed?.ok ? { name: parsed.command.name, text: parsed.text } : undefined;
}
