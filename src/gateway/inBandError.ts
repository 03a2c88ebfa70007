// Where a 200 answer hides an error (read by the chat stream, and by any dialect reading a 200 body): kept apart from
// errors.ts, which activation loads, since only a request reads it.

/**
 * The error a 200 body (or a stream chunk) carries in band, as the value detailsFromErrorValue reads, or undefined
 * when it carries none: an `error` object (OpenRouter after a generation started), a string `error` with its
 * sibling `message` (Express), Portkey's `{status:"failure",message}`, DashScope's `output.code`/`output.message`.
 */
export function inBandError(body: Readonly<Record<string, unknown>>): unknown {
  const error = body.error;
  if (error !== undefined && error !== null) return typeof error === 'string' ? body : error;
  if (body.status === 'failure') return body;
  const output = body.output;
  if (output !== null && typeof output === 'object' && !Array.isArray(output)) {
    const code = (output as Record<string, unknown>).code;
    if (code !== undefined && code !== null && code !== '') return { output };
  }
  return undefined;
}
