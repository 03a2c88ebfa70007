// Apart from chatStream.ts so VS Code's chat provider (loaded at activation) reads tool calls without loading the
// stream parser, which loads with the client on the first request.

/**
 * The arguments of an assembled tool call as an object. An empty string (a tool without parameters whose
 * arguments were null or never sent, fixture case 20) is `{}`; text that is not a JSON object gives undefined.
 */
export function parseToolArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
