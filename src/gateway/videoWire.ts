// A video dialect's request as the client sends it (types.ts's VideoWire, built by videos/core/dialects/): where it may
// go and how its answer is read, apart from the client's own calls. Pure.
import { badResponse } from './failures';
import { headerText, type Headers } from './retry';
import type { VideoJob, VideoWire } from './types';

/** The wire's URL, only on the client's own origin (the key goes with it); anything else is refused unsent. */
export function wireTarget(wire: VideoWire, origin: string): URL {
  let url: URL;
  try {
    url = new URL(wire.url);
  } catch {
    throw badResponse('The video request has no valid URL.');
  }
  if (url.origin !== origin) throw badResponse(`The video request would go to ${url.origin}, not to the gateway's own origin ${origin}; it was not sent.`);
  return url;
}

/** The dialect's reading of the answer, its failure worded as a bad answer. */
export function readWire(wire: VideoWire, body: unknown): VideoJob {
  try {
    return wire.read(body);
  } catch (error) {
    throw badResponse(error instanceof Error ? error.message : 'The video job from the gateway could not be read.');
  }
}

/** The model a request names, when it names one as text. */
export function modelOf(request: { model?: unknown }): string | undefined {
  return typeof request.model === 'string' && request.model !== '' ? request.model : undefined;
}

/** The wait before the next poll an OpenAI-shaped gateway asks for (`openai-poll-after-ms`), or undefined. */
export function pollAfterMs(headers: Headers): number | undefined {
  const text = headerText(headers, 'openai-poll-after-ms')?.trim();
  if (!text || text.length > 12) return undefined;
  const ms = Number(text);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
