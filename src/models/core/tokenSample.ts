// What one answered chat request says about characters per token: the sample tokenRatios.ts learns from. Apart from
// the ratio store (which reads and writes a file) so the usage feature, which sees every answer, takes samples
// without loading it. Pure.
import type { ChatRequest } from '../../gateway/types';
import { isRecord } from '../../util/records';

/** What one answered request says: the characters of its text and its messages, and the prompt tokens reported. */
export interface TokenSample {
  chars: number;
  messages: number;
  promptTokens: unknown;
}

/**
 * The text characters and messages of a chat request, or undefined when it carries anything whose tokens are not
 * counted by characters (images, tools): such a request cannot teach the ratio.
 */
export function requestText(request: Pick<ChatRequest, 'messages' | 'tools'>): { chars: number; messages: number } | undefined {
  if (request.tools?.length) return undefined;
  let chars = 0;
  for (const message of request.messages) {
    if (message.tool_calls?.length) return undefined;
    if (typeof message.content === 'string') chars += message.content.length;
    else if (Array.isArray(message.content)) {
      for (const part of message.content) {
        if (part.type !== 'text') return undefined;
        chars += part.text.length;
      }
    }
  }
  return { chars, messages: request.messages.length };
}

/** The sample a chat request and the `usage` of its answer give, or undefined when they cannot teach the ratio. */
export function chatSample(request: Pick<ChatRequest, 'messages' | 'tools'>, usage: unknown): TokenSample | undefined {
  const text = requestText(request);
  if (!text || !isRecord(usage)) return undefined;
  return { ...text, promptTokens: usage.prompt_tokens };
}
