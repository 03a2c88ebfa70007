// A media turn as the webview sees it: where its media loads from. The kept copy comes first (under the webview's
// resource root); the gateway's own link is the fallback; with neither, the turn has no source and shows "expired".
import type { MediaTurn } from '../../chatProtocol/session';
import type { WireMediaTurn } from '../../chatProtocol/mediaTurn';
import type { KeptFile } from './ports';

export interface MediaSources {
  keptFile(entryId: string, fileName: string): KeptFile | undefined;
  /** The webview's URL for a local file. */
  webviewSrc(path: string): string;
}

export function wireMediaTurn(turn: MediaTurn, sources: MediaSources): WireMediaTurn {
  const { entryId, fileName, jobKey: _jobKey, url, contentType, detail, ...rest } = turn;
  const wire: WireMediaTurn = { ...rest };
  if (detail) wire.detail = detail;
  if (url) wire.url = url;
  if (turn.state !== 'complete') return wire;
  const file = entryId && fileName ? sources.keptFile(entryId, fileName) : undefined;
  if (file) {
    wire.src = sources.webviewSrc(file.path);
    wire.contentType = file.contentType;
  } else if (url) {
    wire.src = url;
    if (contentType) wire.contentType = contentType;
  }
  return wire;
}
