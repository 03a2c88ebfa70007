// Error bodies in the spec's section 7 shape: {"error":{"code","message","type":"error"}}.

export interface SimError {
  status: number;
  code: string;
  message: string;
  headers?: Record<string, string>;
}

export function errorBody(code: string, message: string): { error: { code: string; message: string; type: 'error' } } {
  return { error: { code, message, type: 'error' } };
}

/** Thrown by validators; the router turns it into an error response. */
export class SimErrorResponse extends Error {
  constructor(readonly simError: SimError) {
    super(simError.message);
  }
}

export function invalidRequest(message: string): SimErrorResponse {
  return new SimErrorResponse({ status: 400, code: 'invalid_request', message });
}

export function modelNotFound(model: string): SimErrorResponse {
  return new SimErrorResponse({ status: 404, code: 'model_not_found', message: `The model '${model}' does not exist` });
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The request body of an endpoint served by one model: a JSON object whose `model` is known (else 404) and is
 * `expected` (else 400 with `wrongModel`'s message).
 */
export function bodyForModel(body: unknown, expected: string, isKnown: (model: string) => boolean, wrongModel: (model: string) => string): Record<string, unknown> & { model: string } {
  if (!isObject(body)) throw invalidRequest('Request body must be a JSON object');
  if (typeof body.model !== 'string' || body.model === '') throw invalidRequest("'model' is required and must be a string");
  if (!isKnown(body.model)) throw modelNotFound(body.model);
  if (body.model !== expected) throw invalidRequest(wrongModel(body.model));
  return body as Record<string, unknown> & { model: string };
}

export function notFound(message: string): SimErrorResponse {
  return new SimErrorResponse({ status: 404, code: 'not_found', message });
}
