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

export function notFound(message: string): SimErrorResponse {
  return new SimErrorResponse({ status: 404, code: 'not_found', message });
}
