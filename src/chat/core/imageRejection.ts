// A gateway that refuses a message because of its image answers with a plain 400. When the message carried
// images, that is what the user is told, with a way to send the same message without them.
import { OPEN_LOGS, type AdviceAction, type ErrorAdvice } from '../../ui/core/errorAdvice';

/** Handled by the chat itself (webviewBridge), not run as a VS Code command. */
export const RESEND_WITHOUT_IMAGES: AdviceAction = { title: 'Resend Without Image', command: 'modelGateway.chat.resendWithoutImages' };

export function imageRejectionAdvice(advice: ErrorAdvice, model: string): ErrorAdvice {
  if (advice.kind !== 'bad_request') return advice;
  const who = model ? `${model}: this` : 'This';
  return { kind: 'bad_request', message: `${who} model does not accept images. ${advice.message}`, actions: [RESEND_WITHOUT_IMAGES, OPEN_LOGS] };
}
