// The chat page's Content-Security-Policy. Media may load only from data:, blob:, the webview's own resource root,
// and the exact origins of results the extension itself received from the gateway (never a link in model text,
// which stays a plain link).
import type { Turn } from '../../../chatProtocol/session';
import { cleanMediaUrl } from '../../../chatProtocol/mediaTurn';
import { pageCsp } from '../../../ui/core/pageCsp';

export interface ChatCspOptions {
  nonce: string;
  /** The webview's resource root (`webview.cspSource`). */
  cspSource: string;
  /** Exact origins (`scheme://host:port`) of media results the gateway sent. */
  mediaOrigins: readonly string[];
  /** The markdown worker's script URL (CHAT_PAGE's bundle), when the page has one. */
  workers?: readonly string[];
}

/** A CSP source expression for an origin, or undefined when it is not a plain http(s) origin. */
function originSource(origin: string): string | undefined {
  const url = cleanMediaUrl(origin);
  if (!url) return undefined;
  const parsed = new URL(url);
  // Only a plain host name or IP: a wildcard or anything else CSP reads specially would widen the policy.
  if (!/^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/i.test(parsed.hostname)) return undefined;
  return parsed.origin === origin ? origin : undefined;
}

/** Where the chat page's images, audio and video may come from (the CSP's img-src and media-src). */
export function chatMediaSources(cspSource: string, mediaOrigins: readonly string[]): string[] {
  const origins = [...new Set(mediaOrigins.map(originSource).filter((o): o is string => o !== undefined))];
  return [cspSource, 'data:', 'blob:', ...origins];
}

/** What the chat page's CSP allows besides its scripts and media: stylesheets and fonts from its resource root. */
export const CHAT_PAGE_CSP = { styles: 'root', fonts: true } as const;

/** The chat page's CSP, as the panel's page (CHAT_PAGE in chat/vscode/chatPanel.ts) builds it. */
export function chatCsp({ nonce, cspSource, mediaOrigins, workers }: ChatCspOptions): string {
  const media = chatMediaSources(cspSource, mediaOrigins);
  return pageCsp({ nonce, cspSource, scripts: true, ...CHAT_PAGE_CSP, images: media, media, workers });
}

/** The origins of the gateway's result links held by a session's media turns, sorted. */
export function mediaOriginsOf(turns: readonly Turn[]): string[] {
  const origins = new Set<string>();
  for (const turn of turns) {
    if (turn.role !== 'media' || !turn.url) continue;
    const url = cleanMediaUrl(turn.url);
    if (url) origins.add(new URL(url).origin);
  }
  return [...origins].sort();
}
