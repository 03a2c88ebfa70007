// What a failed image or speech request tells the user, and the way forward: the one wording (ui/core/errorAdvice.ts,
// which also warns when paid work may have been done anyway), plus Try Again with the same request, so what the user
// typed is never lost. Pure.
import { adviceFor, type AdviceAction, type ErrorAdvice } from '../../ui/core/errorAdvice';
import { MediaError } from './mediaGeneration';
import { MediaRequestError } from './mediaRequest';
import { EditError } from './imageEdit';

export interface FailureContext {
  origin?: string;
  model?: string;
  /** "image", "speech" or "transcription", for the sentences. */
  what: 'image' | 'speech' | 'transcription';
  /** The action that sends the same request again. */
  retry?: AdviceAction;
}

export function mediaFailureAdvice(error: unknown, context: FailureContext): ErrorAdvice {
  if (error instanceof MediaError && error.advice) return error.advice;
  if (error instanceof MediaRequestError) return { kind: 'bad_request', message: error.message, actions: [] };
  if (error instanceof EditError) return { kind: error.code === 'declined' ? 'aborted' : 'bad_request', message: error.message, actions: [] };
  const advice = adviceFor(error, { origin: context.origin, model: context.model, paidFor: context.what === 'image' ? 'the image' : context.what === 'transcription' ? 'the transcript' : 'the audio' });
  const retryable = advice.kind !== 'aborted' && advice.kind !== 'auth' && advice.kind !== 'forbidden';
  if (context.retry && retryable) advice.actions = [context.retry, ...advice.actions];
  return advice;
}
