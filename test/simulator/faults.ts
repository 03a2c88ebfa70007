// Fault names the simulator can inject, and where a request asks for one.

export const FAULTS = [
  'drop-mid-stream',
  'stall',
  'http-500',
  'http-502',
  'http-503',
  'malformed-json',
  'slow-headers',
  'reset',
  'empty-body',
  'html-error',
  'error-chunk',
  'openrouter-error-chunk',
  'budget-429',
] as const;

export type FaultName = (typeof FAULTS)[number];

export function isFaultName(value: string): value is FaultName {
  return (FAULTS as readonly string[]).includes(value);
}

const FAULT_KEYWORD = /\[fault:([a-z0-9-]+)\]/i;

/** The fault named by a `[fault:NAME]` keyword in prompt text, lower-cased; undefined when there is none. */
export function faultKeyword(text: string): string | undefined {
  return FAULT_KEYWORD.exec(text)?.[1]?.toLowerCase();
}

/** What `error-chunk` sends in place of the rest of a reply (a 200 stream or body carrying an error object). */
export const MIDSTREAM_ERROR = { error: { code: 'server_error', message: 'The model stopped unexpectedly (simulated)', type: 'error' } };

/** OpenRouter's error after a generation started: a 200 stream whose chunk carries `error` with a numeric code. */
export const OPENROUTER_MIDSTREAM_ERROR = { id: 'gen-sim', object: 'chat.completion.chunk', error: { code: 502, message: 'Provider returned error: upstream disconnected (simulated)' }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] };

/** LiteLLM's budget refusal: HTTP 429, `type: budget_exceeded`, the code a string, the figures in the message. */
export const BUDGET_EXCEEDED = { error: { message: 'Budget has been exceeded! Current cost: 10.51, Max budget: 10.0', type: 'budget_exceeded', param: null, code: '429' } };

export const HTML_ERROR_PAGE = `<!DOCTYPE html>
<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx</center>
</body>
</html>
`;
