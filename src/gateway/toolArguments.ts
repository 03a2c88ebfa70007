// Apart from chatStream.ts so VS Code's chat provider (loaded at activation) reads tool calls without loading the
// stream parser, which loads with the client on the first request.
import { isRecord } from '../util/records';

/**
 * The arguments of an assembled tool call as an object. An empty string (a tool without parameters whose
 * arguments were null or never sent, fixture case 20) is `{}`; text that is not a JSON object gives undefined.
 */
export function parseToolArguments(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
