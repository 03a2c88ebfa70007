// What a failed image or speech request tells the user, and the way forward: the gateway's advice (gateway/
// errorAdvice.ts), a warning when paid work may have been done anyway, and Try Again with the same request, so what
// the user typed is never lost. Pure.
import { adviceFor, type AdviceAction, type ErrorAdvice } from '../../ui/core/errorAdvice';
import { readError } from '../../gateway/errors';
import { MediaError } from './mediaGeneration';
import { MediaRequestError } from './mediaRequest';

export interface FailureContext {
  origin?: string;
  model?: string;
  /** "image" or "speech", for the sentences. */
  what: 'image' | 'speech';
  /** The action that sends the same request again. */
  retry?: AdviceAction;
}

export function mediaFailureAdvice(error: unknown, context: FailureContext): ErrorAdvice {
  if (error instanceof MediaError && error.advice) return error.advice;
  if (error instanceof MediaRequestError) return { kind: 'bad_request', message: error.message, actions: [] };
  const advice = adviceFor(error, { origin: context.origin, model: context.model });
  if (readError(error).outcomeUnknown) {
    const made = context.what === 'image' ? 'made (and charged for) the image' : 'made (and charged for) the audio';
    advice.message = `The request reached the gateway, which may have ${made}, but the answer was lost. ${advice.message}`;
  }
  const retryable = advice.kind !== 'aborted' && advice.kind !== 'auth' && advice.kind !== 'forbidden';
  if (context.retry && retryable) advice.actions = [context.retry, ...advice.actions];
  return advice;
}
