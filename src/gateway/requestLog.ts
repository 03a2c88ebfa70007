// The client's log: one line per HTTP attempt, never the key or any header.

import type { Logger } from '../util/logger';
import type { GatewayErrorCode } from './types';

/** One line per HTTP attempt. Never carries the key or any header. */
export interface RequestLogLine {
  method: string;
  path: string;
  /** HTTP status, or 0 when no response arrived. */
  status: number;
  durationMs: number;
  requestId?: string;
  /** 1 for the first try, 2 for the first retry… */
  attempt: number;
  /** Set when the attempt failed. */
  errorCode?: GatewayErrorCode;
}

/** Structured logging: one call per HTTP attempt. */
export interface GatewayLogger {
  onRequest(line: RequestLogLine): void;
}

/** Plain-text logging (an output channel): successes go to info, failures to warn. */
export type TextLogger = Pick<Logger, 'info' | 'warn'>;

export function formatRequestLine(line: RequestLogLine): string {
  const outcome = line.errorCode !== undefined ? `${line.status || 'no response'} (${line.errorCode})` : String(line.status);
  const retry = line.attempt > 1 ? `, attempt ${line.attempt}` : '';
  const id = line.requestId ? `, request ${line.requestId}` : '';
  return `${line.method} ${line.path} → ${outcome} in ${Math.round(line.durationMs)} ms${retry}${id}`;
}

/** Hands one attempt's line to the logger; a failing logger never fails the request. */
export function logRequest(logger: GatewayLogger | TextLogger | undefined, line: RequestLogLine): void {
  if (!logger) return;
  if (line.requestId === undefined) delete line.requestId;
  if (line.errorCode === undefined) delete line.errorCode;
  try {
    if ('onRequest' in logger) logger.onRequest(line);
    else if (line.errorCode !== undefined) logger.warn(formatRequestLine(line));
    else logger.info(formatRequestLine(line));
  } catch {
    // A failing logger must not fail the request.
  }
}
