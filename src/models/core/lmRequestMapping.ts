// VS Code's language model request as the gateway's chat request, and the answer's tool calls back: loaded with
// the first request or token count from VS Code's chat (its own file in the bundle), not at activation.
import type { ChatMessage, ChatRequest, ContentPart, ToolCall, ToolDefinition, WireToolCall } from '../../gateway/types';
import { parseToolArguments } from '../../gateway/toolArguments';
import { CHARS_PER_TOKEN, TOKENS_PER_IMAGE, TOKENS_PER_MESSAGE } from '../../chatProtocol/attachments';
import { effortFields, type ReasoningEffortFormat } from '../../gateway/reasoningEffort';
import { requestedEffort } from './lmReasoning';
import type { LmMessage, LmPart, LmTool, LmToolMode } from './lmMapping';

/**
 * VS Code's history as the gateway's messages. Tool results (carried in user messages) become `tool` messages
 * that come before any text of the same user message, right after the assistant message that called the tools.
 */
export function toChatMessages(messages: readonly LmMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const message of messages) {
    const text = message.content
      .filter((p): p is Extract<LmPart, { kind: 'text' }> => p.kind === 'text')
      .map((p) => p.value)
      .join('');
    const name = message.name ? { name: message.name } : {};
    if (message.role === 'assistant') {
      const calls = message.content.filter((p): p is Extract<LmPart, { kind: 'toolCall' }> => p.kind === 'toolCall').map(toWireToolCall);
      if (calls.length > 0) out.push({ role: 'assistant', content: text === '' ? null : text, tool_calls: calls, ...name });
      else if (text !== '') out.push({ role: 'assistant', content: text, ...name });
      continue;
    }
    for (const part of message.content) {
      if (part.kind === 'toolResult') out.push({ role: 'tool', tool_call_id: part.callId, content: part.content });
    }
    const images = message.content.filter((p): p is Extract<LmPart, { kind: 'image' }> => p.kind === 'image');
    if (images.length > 0 && message.role === 'user') out.push({ role: 'user', content: [...(text !== '' ? [{ type: 'text' as const, text }] : []), ...images.map(imagePart)], ...name });
    else if (text !== '') out.push({ role: message.role, content: text, ...name });
  }
  return out;
}

function imagePart(image: Extract<LmPart, { kind: 'image' }>): ContentPart {
  return { type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${Buffer.from(image.data).toString('base64')}` } };
}

function toWireToolCall(part: Extract<LmPart, { kind: 'toolCall' }>): WireToolCall {
  return { id: part.callId, type: 'function', function: { name: part.name, arguments: JSON.stringify(part.input ?? {}) } };
}

export function toToolDefinitions(tools: readonly LmTool[]): ToolDefinition[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description ? { description: tool.description } : {}),
      parameters: (tool.inputSchema as Record<string, unknown> | undefined) ?? { type: 'object', properties: {} },
    },
  }));
}

/**
 * Auto → 'auto'. Required with one tool names it (the spec's object form); with several it is the
 * OpenAI-compatible 'required', which the spec does not list but compatible gateways accept.
 */
export function toToolChoice(mode: LmToolMode, tools: readonly LmTool[]): ChatRequest['tool_choice'] {
  if (mode === 'required' && tools.length === 1) return { type: 'function', function: { name: tools[0].name } };
  return mode === 'required' ? 'required' : 'auto';
}

/** Sampling options a caller may pass in `modelOptions`, by their wire names or VS Code-style camelCase. */
export function samplingFrom(modelOptions: Readonly<Record<string, unknown>> | undefined): Partial<ChatRequest> {
  const o = modelOptions ?? {};
  const out: Partial<ChatRequest> = {};
  const temperature = numberOf(o.temperature);
  const topP = numberOf(o.top_p ?? o.topP);
  const maxTokens = numberOf(o.max_tokens ?? o.maxTokens);
  if (temperature !== undefined) out.temperature = temperature;
  else if (topP !== undefined) out.top_p = topP;
  if (maxTokens !== undefined && Number.isInteger(maxTokens) && maxTokens > 0) out.max_tokens = maxTokens;
  const stop = typeof o.stop === 'string' ? [o.stop] : Array.isArray(o.stop) ? o.stop.filter((s): s is string => typeof s === 'string') : [];
  if (stop.length > 0) out.stop = stop;
  return out;
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export interface ChatRequestInput {
  readonly model: string;
  readonly messages: readonly LmMessage[];
  readonly tools?: readonly LmTool[];
  readonly toolMode: LmToolMode;
  readonly modelOptions?: Readonly<Record<string, unknown>>;
  /** What the user chose in VS Code's model picker (newer hosts). */
  readonly modelConfiguration?: Readonly<Record<string, unknown>>;
  readonly effortFormat?: ReasoningEffortFormat;
}

export function toChatRequest(input: ChatRequestInput): ChatRequest {
  const tools = input.tools ?? [];
  return {
    model: input.model,
    messages: toChatMessages(input.messages),
    stream: true,
    // The usage block at the end of the stream: the usage ledger counts VS Code's chat's tokens from it.
    stream_options: { include_usage: true },
    ...samplingFrom(input.modelOptions),
    ...effortFields(requestedEffort(input.modelOptions, input.modelConfiguration), input.effortFormat),
    ...(tools.length > 0 ? { tools: toToolDefinitions(tools), tool_choice: toToolChoice(input.toolMode, tools) } : {}),
  };
}

export interface LmToolCall {
  readonly callId: string;
  readonly name: string;
  readonly input: object;
}

export class ToolArgumentsError extends Error {
  override readonly name = 'ToolArgumentsError';
}

/** The gateway's finished tool calls as VS Code tool call parts; arguments must be a JSON object ('' is {}). */
export function toLmToolCalls(calls: readonly ToolCall[]): LmToolCall[] {
  return calls.map((call, index) => {
    if (!call.name) throw new ToolArgumentsError(`The model asked for a tool call (#${index + 1}) without a tool name.`);
    return { callId: call.id || `call_mg_${index}`, name: call.name, input: parseToolInput(call) };
  });
}

function parseToolInput(call: ToolCall): object {
  const input = parseToolArguments(call.arguments);
  if (!input) throw new ToolArgumentsError(`The model's arguments for the tool ${call.name} are not a JSON object.`);
  return input;
}

/**
 * Token estimate without the model's tokenizer (the gateway exposes none): about four characters per token,
 * rounded up, plus a few tokens of framing per message. Errs slightly high, which keeps VS Code's prompt
 * budgeting on the safe side.
 */
export { CHARS_PER_TOKEN, TOKENS_PER_MESSAGE };

export function estimateTokens(input: string | LmMessage): number {
  if (typeof input === 'string') return Math.ceil(input.length / CHARS_PER_TOKEN);
  let chars = input.name?.length ?? 0;
  for (const part of input.content) {
    if (part.kind === 'text') chars += part.value.length;
    else if (part.kind === 'toolCall') chars += part.name.length + JSON.stringify(part.input ?? {}).length;
    else if (part.kind === 'image') chars += TOKENS_PER_IMAGE * CHARS_PER_TOKEN;
    else chars += part.callId.length + part.content.length;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + TOKENS_PER_MESSAGE;
}
