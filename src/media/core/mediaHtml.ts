// What the image gallery and the speech player show, as page content the webview host serves (mediaPanel.ts).
// Pure (no `vscode`), so the CSP and the escaping are tested in Node. The gallery and the kept speech's player run no script at all: each action is a `command:` link to one of the few
// commands the panel allows (`enableCommandUris` lists exactly the page's `commands`), carrying only an entry id and a
// file index, which the command looks up in the history. The streaming player (speech still arriving) runs one
// bundled script, by nonce (webview/player), which plays the pieces the host sends through Media Source Extensions.
import { escapeHtml } from '../../util/html';
import type { PageContent, PageServing } from '../../ui/core/pageCsp';
import { commandLink } from '../../webview/player/protocol';
import { entrySummary, shortText, type MediaEntry } from './mediaEntry';

/** The commands a page links to (the media feature's definition names them). */
export interface PageCommands {
  save: string;
  copy: string;
  open: string;
}

/** Where each file of the entry is shown from: a webview resource URI of the kept file, or nothing (it is gone). */
export interface PageSources {
  /** `webview.cspSource`: the webview's resource root. */
  cspSource: string;
  files: Array<string | undefined>;
  commands: PageCommands;
}

/** The argument a page's link passes: `{ entry, index }`. */
/** What the pages' CSP allows besides their images or audio: their own style element. They run no script. */
export const MEDIA_PAGE_CSP: Pick<PageServing, 'styles'> = { styles: 'nonce' };

const STYLE = `
  body { margin: 0; padding: 12px 16px; color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  h1 { font-size: 1.1em; font-weight: 600; margin: 0 0 4px; overflow-wrap: anywhere; }
  .meta, .note, figcaption { opacity: 0.8; font-size: 0.9em; overflow-wrap: anywhere; }
  .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 16px; margin-top: 12px; }
  figure { margin: 0; display: flex; flex-direction: column; gap: 6px; }
  img { max-width: 100%; height: auto; border: 1px solid var(--vscode-panel-border); background: var(--vscode-editorWidget-background); }
  audio { width: 100%; max-width: 640px; margin: 12px 0; }
  nav { display: flex; gap: 12px; flex-wrap: wrap; }
  a { color: var(--vscode-textLink-foreground); text-decoration: none; }
  a:hover, a:focus { text-decoration: underline; }
  .gone { padding: 24px; border: 1px dashed var(--vscode-panel-border); text-align: center; }
  blockquote { margin: 8px 0; padding-left: 8px; border-left: 3px solid var(--vscode-textBlockQuote-border); white-space: pre-wrap; overflow-wrap: anywhere; max-height: 40vh; overflow: auto; }`;


function link(command: string, entry: MediaEntry, index: number, label: string, title: string): string {
  return `<a href="${escapeHtml(commandLink(command, entry, index))}" title="${escapeHtml(title)}">${escapeHtml(label)}</a>`;
}

function notes(entry: MediaEntry): string {
  return entry.notes.map((n) => `<p class="note">${escapeHtml(n)}</p>`).join('\n');
}

/** Images and media come from the resource root only: every shown file is a kept copy, never a remote link. */
export function galleryPage(entry: MediaEntry, sources: PageSources): PageContent {
  const figures = entry.files.map((file, index) => {
    const src = sources.files[index];
    const picture = src
      ? `<img src="${escapeHtml(src)}" alt="${escapeHtml(`Image ${index + 1}: ${shortText(entry.prompt, 200)}`)}">`
      : '<div class="gone">The file is no longer in the history folder.</div>';
    const revised = file.revisedPrompt && file.revisedPrompt !== entry.prompt ? `<figcaption>Revised prompt: ${escapeHtml(shortText(file.revisedPrompt, 300))}</figcaption>` : '';
    const caption = file.caption ? `${revised}<figcaption>${escapeHtml(shortText(file.caption, 1000))}</figcaption>` : revised;
    const actions = src
      ? `<nav>${link(sources.commands.save, entry, index, 'Save to Workspace', 'Save this image into the workspace')} ${link(sources.commands.copy, entry, index, 'Copy', 'Copy the image’s link, or its file path')} ${link(sources.commands.open, entry, index, 'Open', 'Open the image in an editor')}</nav>`
      : '';
    return `<figure>\n${picture}\n${caption}\n${actions}\n</figure>`;
  });
  const body = `<h1>${escapeHtml(shortText(entry.prompt, 300))}</h1>
<p class="meta">${escapeHtml(entrySummary(entry))} · ${escapeHtml(new Date(entry.createdAt).toLocaleString())}</p>
${notes(entry)}
<div class="grid">
${figures.join('\n')}
</div>`;
  return { title: `Images: ${shortText(entry.prompt, 40)}`, style: STYLE, body, images: [sources.cspSource] };
}

export function playerPage(entry: MediaEntry, sources: PageSources): PageContent {
  const src = sources.files[0];
  const player = src
    ? `<audio controls autoplay preload="auto" src="${escapeHtml(src)}">This audio cannot play here; use Open.</audio>
<nav>${link(sources.commands.save, entry, 0, 'Save to Workspace', 'Save this audio into the workspace')} ${link(sources.commands.open, entry, 0, 'Open', 'Open the audio file in an editor')}</nav>`
    : '<div class="gone">The audio file is no longer in the history folder.</div>';
  const body = `<h1>Speech</h1>
<p class="meta">${escapeHtml(entrySummary(entry))} · ${escapeHtml(new Date(entry.createdAt).toLocaleString())}</p>
${player}
<blockquote>${escapeHtml(entry.prompt)}</blockquote>
${notes(entry)}`;
  return { title: `Speech: ${shortText(entry.prompt, 40)}`, style: STYLE, body, media: [sources.cspSource] };
}

/**
 * Speech still arriving: the page's script (webview/player, by nonce) plays the pieces the host sends, then the kept
 * file. MSE plays from a `blob:` URL of the page's own MediaSource, so `media-src` names `blob:` besides the
 * resource root the kept file comes from; nothing else loads.
 */
export function streamingPlayerPage(prompt: string, contentType: string, sources: Pick<PageSources, 'cspSource' | 'commands'>): PageContent {
  const body = `<h1>Speech</h1>
<p class="meta" id="status" role="status">Receiving the audio…</p>
<audio id="player" controls autoplay preload="auto">This audio cannot play here.</audio>
<nav id="actions"></nav>
<blockquote>${escapeHtml(prompt)}</blockquote>`;
  return {
    title: `Speech: ${shortText(prompt, 40)}`,
    style: STYLE,
    body,
    data: { type: contentType, save: sources.commands.save, open: sources.commands.open },
    media: [sources.cspSource, 'blob:'],
  };
}
