// The one vocabulary of failures and the one question every feature asks of one (failureKind), so a 403 or a budget
// refusal is the same kind in the chat, the poller, the status bar and the pacer. The rules themselves
// (failureClassifier.ts) load with the first failure, not at activation. No `vscode` import.
import { lazy } from '../util/lazy';
import type { ErrorFields, FailureKind } from './failureTypes';

// The classifier loads with the first failure.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const classifier = lazy(() => require('./failureClassifier') as typeof import('./failureClassifier'));

export type { ErrorFields, FailureKind } from './failureTypes';

/** The one reader of failures: any thrown value becomes ErrorFields; fields of the wrong type are dropped. */
export function readError(error: unknown): ErrorFields {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const e = error as Record<string, unknown>;
  const fields: ErrorFields = { message: typeof e.message === 'string' ? e.message : '' };
  if (typeof e.status === 'number') fields.status = e.status;
  if (typeof e.code === 'string') fields.code = e.code;
  else if (typeof e.code === 'number') fields.code = String(e.code);
  if (typeof e.type === 'string' && e.type !== '') fields.type = e.type;
  if (typeof e.retryAfterMs === 'number' && Number.isFinite(e.retryAfterMs)) fields.retryAfterMs = e.retryAfterMs;
  if (typeof e.requestId === 'string') fields.requestId = e.requestId;
  if (e.outcomeUnknown === true) fields.outcomeUnknown = true;
  if (typeof e.partial === 'object' && e.partial !== null) fields.partialKept = true;
  if (e.fromServer === true) fields.fromServer = true;
  if (e.name === 'GatewayError') fields.gatewayError = true;
  return fields;
}

/** The kind of any failure (a GatewayError, a test fake, a plain Error), read by shape: the one rule that names one. */
export function failureKind(error: unknown): FailureKind {
  return classifier().classifyFailure(readError(error), error);
}

