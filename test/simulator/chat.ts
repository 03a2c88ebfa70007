// POST /v1/chat/completions: validation, the scripted reply, and its JSON or SSE form.
import { randomBytes } from 'node:crypto';
import { invalidRequest, isObject, modelNotFound } from './errors';
import type { SseFrame } from './exchange';
import { CHAT_MODELS, EFFORT_LEVELS, IMAGE_MODEL, REASONING_MODEL, SPEECH_MODEL, TRANSCRIBE_MODEL, VIDEO_MODEL, acceptsImages, isKnownModel } from './models';
import {
  countTokens,
  hasKeyword,
  hostileReply,
  keywordNumber,
  longReply,
  markdownReply,
  reasoningText,
  snippetOf,
  tokenize,
  toolResultReply,
  withoutKeywords,
} from './replies';

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);
const MAX_LONG_PARAGRAPHS = 10_000;
const MAX_CHUNKS = 1_000_000;

interface SimMessage {
  role: string;
  text: string;
  /** image_url parts in the message. */
  images: number;
  tool_call_id?: string;
  tool_calls?: Array<{ id?: string; function?: { name?: string } }>;
}

interface SimTool {
  name: string;
  parameters?: Record<string, unknown>;
}

export interface ValidChatRequest {
  model: string;
  messages: SimMessage[];
  stream: boolean;
  includeUsage: boolean;
  maxTokens?: number;
  stop: string[];
  tools: SimTool[];
  toolChoice: 'auto' | 'none' | 'required' | { name: string };
  jsonObject: boolean;
  /** `reasoning_effort` as sent (model-5.2 only checks it against its levels; other models ignore it). */
  reasoningEffort?: string;
}

export interface ScriptedToolCall {
  id: string;
  name: string;
  argumentFragments: string[];
}

/** What the assistant says, as the tokens it is streamed in. */
export interface ChatReply {
  id: string;
  created: number;
  model: string;
  reasoning: string[];
  content: string[];
  refusal: string[];
  toolCalls: ScriptedToolCall[];
  finishReason: 'stop' | 'length' | 'tool_calls';
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; completion_tokens_details?: { reasoning_tokens: number } };
  /** `[think]`: the reasoning is written into the content as `<think>…</think>` (tags split across chunks). */
  inlineReasoning?: boolean;
}

function messageText(content: unknown, index: number): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part, p) => {
        if (!isObject(part) || typeof part.type !== 'string') {
          throw invalidRequest(`messages[${index}].content[${p}] must be an object with a type`);
        }
        if (part.type === 'image_url') checkImagePart(part.image_url, `messages[${index}].content[${p}]`);
        return part.type === 'text' && typeof part.text === 'string' ? part.text : '';
      })
      .join('');
  }
  throw invalidRequest(`messages[${index}].content must be a string, null or an array of content parts`);
}

const IMAGE_URL = /^(data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+={0,2}|https?:\/\/\S+)$/;

function checkImagePart(value: unknown, where: string): void {
  if (!isObject(value) || typeof value.url !== 'string' || !IMAGE_URL.test(value.url)) {
    throw invalidRequest(`${where}.image_url.url must be an http(s) URL or a base64 data URL of a PNG, JPEG, WebP or GIF image`);
  }
}

function imageCount(content: unknown): number {
  return Array.isArray(content) ? content.filter((part) => isObject(part) && part.type === 'image_url').length : 0;
}

function validateMessages(value: unknown): SimMessage[] {
  if (!Array.isArray(value) || value.length === 0) throw invalidRequest("'messages' must be a non-empty array");
  return value.map((item, index) => {
    if (!isObject(item)) throw invalidRequest(`messages[${index}] must be an object`);
    if (typeof item.role !== 'string' || !ROLES.has(item.role)) {
      throw invalidRequest(
        `messages[${index}].role must be one of system, user, assistant, tool (got ${JSON.stringify(item.role)})`,
      );
    }
    if (item.content === undefined && !(item.role === 'assistant' && Array.isArray(item.tool_calls))) {
      throw invalidRequest(`messages[${index}].content is required`);
    }
    const message: SimMessage = { role: item.role, text: messageText(item.content, index), images: imageCount(item.content) };
    if (typeof item.tool_call_id === 'string') message.tool_call_id = item.tool_call_id;
    if (Array.isArray(item.tool_calls)) message.tool_calls = item.tool_calls as SimMessage['tool_calls'];
    return message;
  });
}

function validateTools(value: unknown): SimTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidRequest("'tools' must be an array");
  return value.map((tool, index) => {
    if (!isObject(tool) || tool.type !== 'function' || !isObject(tool.function) || typeof tool.function.name !== 'string') {
      throw invalidRequest(`tools[${index}] must be {"type":"function","function":{"name":...}}`);
    }
    const parameters = tool.function.parameters;
    if (parameters !== undefined && !isObject(parameters)) {
      throw invalidRequest(`tools[${index}].function.parameters must be a JSON Schema object`);
    }
    return { name: tool.function.name, parameters };
  });
}

function validateToolChoice(value: unknown, tools: SimTool[]): ValidChatRequest['toolChoice'] {
  if (value === undefined || value === null) return 'auto';
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  if (isObject(value) && value.type === 'function' && isObject(value.function) && typeof value.function.name === 'string') {
    const name = value.function.name;
    if (!tools.some((tool) => tool.name === name)) throw invalidRequest(`tool_choice names '${name}', which is not in 'tools'`);
    return { name };
  }
  throw invalidRequest("'tool_choice' must be 'auto', 'none', 'required' or {\"type\":\"function\",\"function\":{\"name\":...}}");
}

function validateStop(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.some((s) => typeof s !== 'string' || s === '')) {
    throw invalidRequest("'stop' must be an array of non-empty strings");
  }
  return list as string[];
}

/** Throws a SimErrorResponse for the first rule the request breaks. */
export function validateChatRequest(body: unknown): ValidChatRequest {
  if (!isObject(body)) throw invalidRequest('Request body must be a JSON object');
  if (typeof body.model !== 'string' || body.model === '') throw invalidRequest("'model' is required and must be a string");
  const messages = validateMessages(body.messages);
  const model = body.model;
  if (!isKnownModel(model)) throw modelNotFound(model);
  if (model === VIDEO_MODEL) {
    throw invalidRequest(`${model} is a video model; use POST /v1/videos/generations (chat models: ${CHAT_MODELS.join(', ')})`);
  }
  if (model === IMAGE_MODEL || model === SPEECH_MODEL || model === TRANSCRIBE_MODEL) {
    const endpoint = model === IMAGE_MODEL ? 'an image model; use POST /v1/images/generations' : model === SPEECH_MODEL ? 'a speech model; use POST /v1/audio/speech' : 'a transcription model; use POST /v1/audio/transcriptions';
    throw invalidRequest(`${model} is ${endpoint} (chat models: ${CHAT_MODELS.join(', ')})`);
  }
  if (!acceptsImages(model) && messages.some((m) => m.images > 0)) {
    throw invalidRequest(`${model} does not accept image input; send text only, or use ${CHAT_MODELS.filter(acceptsImages).join(', ')}`);
  }
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') {
    throw invalidRequest("'stream' must be a boolean");
  }
  const hasTemperature = body.temperature !== undefined && body.temperature !== null;
  const hasTopP = body.top_p !== undefined && body.top_p !== null;
  if (hasTemperature && hasTopP) throw invalidRequest("Use either 'temperature' or 'top_p', not both");
  if (hasTemperature && (typeof body.temperature !== 'number' || body.temperature < 0 || body.temperature > 2)) {
    throw invalidRequest("'temperature' must be a number from 0 to 2");
  }
  if (hasTopP && (typeof body.top_p !== 'number' || body.top_p < 0 || body.top_p > 1)) {
    throw invalidRequest("'top_p' must be a number from 0 to 1");
  }
  const maxTokens = body.max_tokens;
  if (maxTokens !== undefined && maxTokens !== null && (!Number.isInteger(maxTokens) || (maxTokens as number) < 1)) {
    throw invalidRequest("'max_tokens' must be a positive integer");
  }
  const tools = validateTools(body.tools);
  const responseFormat = body.response_format;
  if (responseFormat !== undefined && responseFormat !== null && (!isObject(responseFormat) || typeof responseFormat.type !== 'string')) {
    throw invalidRequest("'response_format' must be an object with a 'type'");
  }
  if (body.user !== undefined && typeof body.user !== 'string') throw invalidRequest("'user' must be a string");
  const streamOptions = isObject(body.stream_options) ? body.stream_options : undefined;
  const effort = body.reasoning_effort;
  if (effort !== undefined && effort !== null && model === REASONING_MODEL && (typeof effort !== 'string' || !EFFORT_LEVELS.includes(effort))) {
    throw invalidRequest(`'reasoning_effort' must be one of ${EFFORT_LEVELS.join(', ')} for ${model}`);
  }
  return {
    ...(typeof effort === 'string' ? { reasoningEffort: effort } : {}),
    model,
    messages,
    stream: body.stream === true,
    includeUsage: streamOptions?.include_usage === true,
    maxTokens: typeof maxTokens === 'number' ? maxTokens : undefined,
    stop: validateStop(body.stop),
    tools,
    toolChoice: validateToolChoice(body.tool_choice, tools),
    jsonObject: isObject(responseFormat) && responseFormat.type === 'json_object',
  };
}

export function lastUserText(messages: SimMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') return messages[i].text;
  return '';
}

/** Text of the latest user message (for keywords); works on unvalidated bodies too. */
export function promptOfChatBody(body: unknown): string {
  if (!isObject(body) || !Array.isArray(body.messages)) return '';
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const message: unknown = body.messages[i];
    if (isObject(message) && message.role === 'user') {
      try {
        return messageText(message.content, i);
      } catch {
        return '';
      }
    }
  }
  return '';
}

function exampleValue(schema: unknown, key: string, topic: string): unknown {
  if (!isObject(schema)) return `example ${key}`;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return key === 'query' || key === 'prompt' || key === 'text' ? topic : `example ${key}`;
    case 'integer':
      return 3;
    case 'number':
      return 42.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return [exampleValue(schema.items, `${key} item`, topic)];
    case 'object':
    default: {
      if (!isObject(schema.properties)) return type === 'object' ? {} : `example ${key}`;
      const out: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(schema.properties)) out[name] = exampleValue(sub, name, topic);
      return out;
    }
  }
}

/** Splits into about four pieces so clients must concatenate streamed arguments. */
function fragments(text: string, count = 4): string[] {
  const size = Math.max(1, Math.ceil(text.length / count));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [''];
}

function toolNameFor(messages: SimMessage[], toolCallId: string | undefined): string {
  for (const message of messages) {
    for (const call of message.tool_calls ?? []) {
      if (call.id === toolCallId && typeof call.function?.name === 'string') return call.function.name;
    }
  }
  return 'tool';
}

function jsonReply(userText: string, model: string): string {
  const topic = snippetOf(userText);
  return JSON.stringify(
    { answer: `A JSON reply about ${topic}`, echo: topic, model, words: withoutKeywords(userText).split(/\s+/).filter(Boolean).length, items: [1, 2, 3], ok: true },
    null,
    2,
  );
}

function cutAtStop(text: string, stops: string[]): string {
  let end = text.length;
  for (const stop of stops) {
    const at = text.indexOf(stop);
    if (at >= 0 && at < end) end = at;
  }
  return text.slice(0, end);
}

function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}

export function composeReply(request: ValidChatRequest, nowMs: number): ChatReply {
  const userText = lastUserText(request.messages);
  const last = request.messages[request.messages.length - 1];
  const base = { id: newId('chatcmpl-'), created: Math.floor(nowMs / 1000), model: request.model };
  const promptTokens = request.messages.reduce((sum, m) => sum + countTokens(m.text) + 3, 0);
  const usage = (completion: number): ChatReply['usage'] => ({
    prompt_tokens: promptTokens,
    completion_tokens: completion,
    total_tokens: promptTokens + completion,
  });

  const wantsTool =
    request.tools.length > 0 && request.toolChoice !== 'none' && last.role !== 'tool';
  if (wantsTool) {
    const choice = request.toolChoice;
    const tools =
      typeof choice === 'object'
        ? [request.tools.find((t) => t.name === choice.name)!]
        : request.tools.slice(0, hasKeyword(userText, 'parallel') ? 2 : 1);
    const toolCalls = tools.map((tool) => {
      const args = JSON.stringify(exampleValue(tool.parameters ?? { type: 'object', properties: {} }, tool.name, snippetOf(userText)));
      return { id: newId('call_'), name: tool.name, argumentFragments: fragments(args) };
    });
    const argTokens = toolCalls.reduce((sum, call) => sum + countTokens(call.argumentFragments.join('')), 0);
    return { ...base, reasoning: [], content: [], refusal: [], toolCalls, finishReason: 'tool_calls', usage: usage(argTokens) };
  }

  if (hasKeyword(userText, 'refusal')) {
    const refusal = tokenize(`I can't help with “${snippetOf(userText)}”.`);
    return { ...base, reasoning: [], content: [], refusal, toolCalls: [], finishReason: 'stop', usage: usage(refusal.length) };
  }

  const inline = hasKeyword(userText, 'think');
  const effortNote = request.reasoningEffort ? ` Effort: ${request.reasoningEffort}.` : '';
  const reasoning = hasKeyword(userText, 'reasoning') || inline ? tokenize(reasoningText(userText) + effortNote) : [];
  let content: string[];
  const chunkCount = keywordNumber(userText, 'chunks');
  if (chunkCount !== undefined) {
    content = new Array<string>(Math.min(chunkCount, MAX_CHUNKS)).fill('tok ');
  } else {
    content = tokenize(cutAtStop(replyText(request, userText, last), request.stop));
  }
  let finishReason: ChatReply['finishReason'] = 'stop';
  if (request.maxTokens !== undefined && content.length > request.maxTokens) {
    content = content.slice(0, request.maxTokens);
    finishReason = 'length';
  }
  const counted = usage(reasoning.length + content.length);
  if (reasoning.length > 0) counted.completion_tokens_details = { reasoning_tokens: reasoning.length };
  return { ...base, reasoning, content, refusal: [], toolCalls: [], finishReason, usage: counted, ...(inline ? { inlineReasoning: true } : {}) };
}

/** The content as sent: with `[think]`, the reasoning first inside `<think>` tags, each tag cut across two chunks. */
function contentPieces(reply: ChatReply): string[] {
  if (!reply.inlineReasoning) return reply.content;
  return ['<thi', 'nk>', ...reply.reasoning, '</th', 'ink>\n\n', ...reply.content];
}

function replyText(request: ValidChatRequest, userText: string, last: SimMessage): string {
  if (last.role === 'tool') return toolResultReply(toolNameFor(request.messages, last.tool_call_id), last.text);
  if (request.jsonObject) return jsonReply(userText, request.model);
  const paragraphs = keywordNumber(userText, 'long');
  if (paragraphs !== undefined) return longReply(userText, Math.min(paragraphs, MAX_LONG_PARAGRAPHS));
  if (hasKeyword(userText, 'hostile')) return hostileReply();
  if (hasKeyword(userText, 'echo')) return withoutKeywords(userText);
  return markdownReply(userText, request.model);
}

export function completionBody(reply: ChatReply): unknown {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: reply.toolCalls.length > 0 || reply.refusal.length > 0 ? null : reply.content.join(''),
  };
  if (reply.refusal.length > 0) message.refusal = reply.refusal.join('');
  if (reply.inlineReasoning) message.content = contentPieces(reply).join('');
  else if (reply.reasoning.length > 0) message.reasoning_content = reply.reasoning.join('');
  if (reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.argumentFragments.join('') },
    }));
  }
  return {
    id: reply.id,
    object: 'chat.completion',
    created: reply.created,
    model: reply.model,
    choices: [{ index: 0, message, finish_reason: reply.finishReason }],
    usage: reply.usage,
  };
}

/** SSE frames, built by string concatenation so 50,000-chunk replies stay cheap. */
export function streamFrames(reply: ChatReply, includeUsage: boolean): SseFrame[] {
  const head = `data: {"id":${JSON.stringify(reply.id)},"object":"chat.completion.chunk","created":${reply.created},"model":${JSON.stringify(reply.model)},"choices":`;
  const delta = (body: string, finish: string | null = null): string =>
    `${head}[{"index":0,"delta":${body},"finish_reason":${finish === null ? 'null' : JSON.stringify(finish)}}]}\n\n`;
  const frames: SseFrame[] = [{ text: delta('{"role":"assistant","content":""}'), paced: false }];
  if (!reply.inlineReasoning) for (const piece of reply.reasoning) frames.push({ text: delta(`{"reasoning_content":${JSON.stringify(piece)}}`), paced: true });
  const pieceCache = new Map<string, string>();
  for (const piece of contentPieces(reply)) {
    let text = pieceCache.get(piece);
    if (text === undefined) {
      text = delta(`{"content":${JSON.stringify(piece)}}`);
      pieceCache.set(piece, text);
    }
    frames.push({ text, paced: true });
  }
  for (const piece of reply.refusal) frames.push({ text: delta(`{"refusal":${JSON.stringify(piece)}}`), paced: true });
  reply.toolCalls.forEach((call, index) => {
    frames.push({
      text: delta(
        `{"tool_calls":[{"index":${index},"id":${JSON.stringify(call.id)},"type":"function","function":{"name":${JSON.stringify(call.name)},"arguments":""}}]}`,
      ),
      paced: true,
    });
    for (const fragment of call.argumentFragments) {
      frames.push({
        text: delta(`{"tool_calls":[{"index":${index},"function":{"arguments":${JSON.stringify(fragment)}}}]}`),
        paced: true,
      });
    }
  });
  frames.push({ text: delta('{}', reply.finishReason), paced: false });
  if (includeUsage) frames.push({ text: `${head}[],"usage":${JSON.stringify(reply.usage)}}\n\n`, paced: false });
  frames.push({ text: 'data: [DONE]\n\n', paced: false });
  return frames;
}
