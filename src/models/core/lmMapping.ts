// VS Code's language model API as plain data, so it can be tested without VS Code: the parts lmProvider.ts turns
// VS Code's classes into, and each model's information for the picker. The request side (history, tools, tokens)
// is in lmRequestMapping.ts, which loads with the first request rather than at activation.
import { isRecord } from '../../util/records';
import type { CatalogModel } from './modelCatalog';
import { effortSchemaFor, type EffortSchema } from './lmReasoning';

export type LmPart =
  | { readonly kind: 'text'; readonly value: string }
  | { readonly kind: 'toolCall'; readonly callId: string; readonly name: string; readonly input: unknown }
  | { readonly kind: 'toolResult'; readonly callId: string; readonly content: string }
  /** VS Code's image data part (LanguageModelDataPart with an image/* type). */
  | { readonly kind: 'image'; readonly mimeType: string; readonly data: Uint8Array };

export interface LmMessage {
  /** VS Code's stable roles are user and assistant; system arrives from newer hosts (proposed API). */
  readonly role: 'user' | 'assistant' | 'system';
  readonly content: readonly LmPart[];
  readonly name?: string;
}

/** VS Code's LanguageModelChatTool. */
export interface LmTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: object;
}

export type LmToolMode = 'auto' | 'required';

/** The fields of VS Code's LanguageModelChatInformation, structurally. */
export interface LmChatInformation {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly tooltip?: string;
  readonly detail?: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: { readonly imageInput?: boolean; readonly toolCalling?: boolean | number };
  /** Newer hosts: per-model options shown in the model picker (here, the reasoning effort; lmReasoning.ts). */
  readonly configurationSchema?: EffortSchema;
}

/** The spec gives no context sizes; these apply unless the model list names its own. */
export const DEFAULT_MAX_INPUT_TOKENS = 128_000;
export const DEFAULT_MAX_OUTPUT_TOKENS = 8_192;

const INPUT_LIMIT_FIELDS = ['max_input_tokens', 'context_length', 'context_window', 'max_context_length', 'max_model_len'];
const OUTPUT_LIMIT_FIELDS = ['max_output_tokens', 'max_completion_tokens', 'max_tokens'];

/** `effortLevels`: the levels of `modelGateway.reasoningEffortLevels`, for a model whose list entry names none. */
export function toChatInformation(model: CatalogModel, effortLevels: readonly string[] = []): LmChatInformation {
  const version = model.created !== undefined ? String(model.created) : 'latest';
  const schema = effortSchemaFor(model.raw, effortLevels);
  return {
    ...(schema ? { configurationSchema: schema } : {}),
    id: model.id,
    name: model.id,
    family: model.id,
    version,
    tooltip: `${model.id} on the Model Gateway${model.ownedBy ? `, owned by ${model.ownedBy}` : ''}`,
    detail: 'Model Gateway',
    maxInputTokens: contextWindowOf(model.raw) ?? DEFAULT_MAX_INPUT_TOKENS,
    maxOutputTokens: positiveField(model.raw, OUTPUT_LIMIT_FIELDS) ?? DEFAULT_MAX_OUTPUT_TOKENS,
    capabilities: { toolCalling: true, imageInput: acceptsImages(model.raw) },
  };
}

/** The model's context window when the model list names it. */
export function contextWindowOf(raw: Record<string, unknown>): number | undefined {
  return positiveField(raw, INPUT_LIMIT_FIELDS);
}

/**
 * Whether the model list says the model takes images: `input_modalities`/`modalities`/`architecture.input_modalities`
 * naming image, `capabilities.vision`, or LiteLLM's `supports_vision` (on the entry or in `model_info`). No word, no images.
 */
export function acceptsImages(raw: Record<string, unknown>): boolean {
  return seesImages(raw) === true;
}

/**
 * Whether a model can see an attached image: true when the list says so (above); false only when it says not, with
 * an input list that names no image or `supports_vision: false`; undefined when it says nothing (most OpenAI-style
 * lists), so the chat warns only about a model known to be blind.
 */
export function seesImages(raw: Record<string, unknown>): boolean | undefined {
  const info = isRecord(raw.model_info) ? raw.model_info : {};
  const architecture = isRecord(raw.architecture) ? raw.architecture : {};
  const lists = [raw.input_modalities, raw.modalities, architecture.input_modalities].filter(Array.isArray);
  if (lists.some((list) => list.some((m) => typeof m === 'string' && /^image/i.test(m)))) return true;
  const capabilities = isRecord(raw.capabilities) ? raw.capabilities : {};
  if (raw.supports_vision === true || info.supports_vision === true || capabilities.vision === true || capabilities.image_input === true) return true;
  if (raw.supports_vision === false || info.supports_vision === false || capabilities.vision === false) return false;
  // `modalities` may list outputs on some gateways; only an input list says what the model cannot take.
  const inputs = [raw.input_modalities, architecture.input_modalities].filter(Array.isArray);
  return inputs.length > 0 ? false : undefined;
}

function positiveField(raw: Record<string, unknown>, fields: readonly string[]): number | undefined {
  for (const field of fields) {
    const value = raw[field];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  }
  return undefined;
}
