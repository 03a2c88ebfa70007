// A media turn as the webview sees it: where its media loads from. The kept copy comes first (under the webview's
// resource root: an image's or a clip's in the Media history, a video's kept before its link expires); else the gateway's link, once the extension has checked it: the page plays where it finally
// leads (after redirects, the origin the CSP then allows), or is told the link is gone ("expired") or unreachable
// (Retry). With neither a copy nor a link the turn has no source and shows "expired".
import type { MediaTurn } from '../../../chatProtocol/session';
import { actionTitles, cleanMediaSrc, type WireMediaTurn } from '../../../chatProtocol/mediaTurn';
import type { LinkCheckState } from './linkChecks';
import type { KeptFile } from '../../../media/core/api';
import type { VideoJob } from '../../../videos/core/api';

function keptVideo(job: VideoJob | undefined): KeptFile | undefined {
  return job?.keptFile ? { path: job.keptFile, contentType: job.keptContentType ?? 'video/mp4' } : undefined;
}

export interface MediaSources {
  keptFile(entryId: string, fileName: string): KeptFile | undefined;
  /** A video job, with the copy of its result kept before its link expires once there is one. */
  videoJob?(jobKey: string): VideoJob | undefined;
  /** The webview's URL for a local file. */
  webviewSrc(path: string): string;
  /** What the extension found out about a gateway link (checking it the first time). */
  link(url: string): LinkCheckState;
}

export function wireMediaTurn(turn: MediaTurn, sources: MediaSources): WireMediaTurn {
  const { entryId, fileName, jobKey: _jobKey, url, contentType, detail, actions, ...rest } = turn;
  const wire: WireMediaTurn = { ...rest };
  if (detail) wire.detail = detail;
  const titles = actionTitles(turn.state, actions);
  if (titles) wire.actions = titles;
  if (url) wire.url = url;
  if (turn.state !== 'complete') return wire;
  const file = entryId && fileName ? sources.keptFile(entryId, fileName) : turn.jobKey ? keptVideo(sources.videoJob?.(turn.jobKey)) : undefined;
  if (file) {
    wire.src = sources.webviewSrc(file.path);
    wire.contentType = file.contentType;
    return wire;
  }
  if (!url) return wire;
  const link = sources.link(url);
  if (link.state === 'available' && cleanMediaSrc(link.finalUrl)) {
    wire.src = link.finalUrl;
    if (contentType) wire.contentType = contentType;
  } else if (link.state === 'available') {
    // Longer than the page accepts: said, not shown as "expired" (a copy is still there to open or download).
    wire.linkState = 'unreachable';
    wire.linkProblem = 'its link leads to an address too long for the chat to play; open the link instead';
  } else if (link.state === 'checking') {
    wire.linkState = 'checking';
  } else {
    wire.linkState = link.state === 'gone' ? 'expired' : 'unreachable';
    wire.linkProblem = link.message;
  }
  return wire;
}
