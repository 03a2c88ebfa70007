// The gallery and player pages: a CSP with no script at all and media only from the webview's resource root, every
// text from the gateway or the user escaped, and links that carry nothing but an entry id and an index.
import * as assert from 'node:assert/strict';
import type { MediaEntry } from '../../../src/media/core/mediaEntry';
import { galleryPage, MEDIA_PAGE_CSP, playerPage, type PageSources } from '../../../src/media/core/mediaHtml';
import { commandLink } from '../../../src/webview/player/protocol';
import { pageHtml } from '../../../src/ui/core/pageCsp';

const PAGE_COMMANDS = { save: 'modelGateway.media.save', copy: 'modelGateway.media.copy', open: 'modelGateway.media.open' };

const HOSTILE = '<img src=x onerror=alert(1)><script>alert(2)</script>" onclick="x';
const entry: MediaEntry = {
  id: 'mabc123def456',
  kind: 'image',
  createdAt: 1_750_000_000_000,
  origin: 'http://gw.test',
  model: 'model-image-1.0',
  prompt: HOSTILE,
  size: '256x256',
  files: [
    { name: 'mabc123def456-1.png', contentType: 'image/png', bytes: 3, revisedPrompt: `revised ${HOSTILE}`, sourceUrl: 'https://cdn.example/a.png' },
    { name: 'mabc123def456-2.png', contentType: 'image/png', bytes: 3 },
  ],
  notes: [`Image 3: ${HOSTILE}`],
};
const sources = { cspSource: 'https://file+.vscode-resource.vscode-cdn.net', files: ['https://file+.vscode-resource.vscode-cdn.net/h/m-1.png', undefined], commands: PAGE_COMMANDS };

// The pages as the webview host serves them (HostedPage.render): the content in the one page builder.
const serve = (content: ReturnType<typeof galleryPage>) => pageHtml(content, { nonce: 'n0nce', cspSource: sources.cspSource, ...MEDIA_PAGE_CSP });
const galleryHtml = (e: MediaEntry, s: PageSources) => serve(galleryPage(e, s));
const playerHtml = (e: MediaEntry, s: PageSources) => serve(playerPage(e, s));

function csp(html: string): string {
  return /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)![1].replace(/&#39;/g, "'");
}

describe('media pages', () => {
  it('the gallery runs no script and loads images only from the resource root', () => {
    const html = galleryHtml(entry, sources);
    assert.equal(csp(html), "default-src 'none'; style-src 'nonce-n0nce'; img-src https://file+.vscode-resource.vscode-cdn.net; connect-src 'none'; frame-src 'none'; worker-src 'none'; form-action 'none'; base-uri 'none'");
    assert.ok(!/<script/i.test(html), 'no script element');
    assert.ok(!html.includes('cdn.example'), 'a remote link is never shown, the kept copy is');
  });

  it('escapes the prompt, revised prompt and notes everywhere', () => {
    for (const html of [galleryHtml(entry, sources), playerHtml({ ...entry, kind: 'speech', voice: 'nova' }, sources)]) {
      assert.ok(!html.includes('<img src=x'), 'no injected element');
      assert.ok(!html.includes('" onclick="'), 'no attribute break-out');
      assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;'));
    }
  });

  it('shows Save, Copy and Open for each kept image, and says when a file is gone', () => {
    const html = galleryHtml(entry, sources);
    const links = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
    assert.deepEqual(links, [commandLink('modelGateway.media.save', entry, 0), commandLink('modelGateway.media.copy', entry, 0), commandLink('modelGateway.media.open', entry, 0)]);
    assert.equal(decodeURIComponent(links[0].split('?')[1]), '[{"entry":"mabc123def456","index":0}]');
    assert.match(html, /The file is no longer in the history folder/);
    for (const link of links) assert.ok(Object.values(PAGE_COMMANDS).some((c) => link.startsWith(`command:${c}?`)));
  });

  it('the player plays from the resource root only, with Save and Open', () => {
    const html = playerHtml({ ...entry, kind: 'speech', voice: 'nova', files: [{ name: 'mabc123def456-1.wav', contentType: 'audio/wav', bytes: 3 }] }, sources);
    assert.equal(csp(html), "default-src 'none'; style-src 'nonce-n0nce'; img-src 'none'; media-src https://file+.vscode-resource.vscode-cdn.net; connect-src 'none'; frame-src 'none'; worker-src 'none'; form-action 'none'; base-uri 'none'");
    assert.match(html, /<audio controls autoplay preload="auto" src="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/h\/m-1\.png">/);
    assert.deepEqual([...html.matchAll(/href="command:([^?]+)\?/g)].map((m) => m[1]), ['modelGateway.media.save', 'modelGateway.media.open']);
  });
});
