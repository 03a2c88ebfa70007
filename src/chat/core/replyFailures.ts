// How a reply that could not be asked for, or was stopped, is reported: the controller throws these and stores the
// advice on the reply as its error.
import { AdvisedError, type ErrorAdvice } from '../../ui/core/errorAdvice';
import type { TurnError } from '../../chatProtocol/session';
import { turnErrorFrom } from '../../chatProtocol/sessionData';

/** Something that is not a gateway error but is shown the same way: its advice travels as data. */
export class ChatSetupError extends AdvisedError {}

export function errorOf(advice: ErrorAdvice): TurnError {
  return turnErrorFrom({ message: advice.message, kind: advice.kind, actions: advice.actions, retryAt: advice.retryAt });
}

export function abortError(): Error {
  return Object.assign(new Error('Stopped.'), { code: 'aborted' });
}
