// What a gateway model is for. GET /v1/models gives no modality (the spec shows no response shape), so the kind
// is inferred, in this order (first match wins):
//
// 1. Explicit fields some gateways add: `type`, `modality`/`modalities`, `task`, `capabilities`,
//    `endpoints`/`supported_endpoints`. A value naming video → video; chat/text/completions → chat;
//    image, audio, speech, embedding, moderation, rerank → other.
// 2. The id (or `owned_by`) contains "video" → video.
// 3. The id names another modality (embedding, image, tts, whisper, audio, speech, moderation, rerank…) → other.
// 4. The id is a known chat model (the spec's `model-k3`, `model-5.2`) or names a chat family
//    (gpt, o1–o9, claude, gemini, gemma, llama, mistral, mixtral, qwen, deepseek, kimi, moonshot, glm, yi,
//    ernie, doubao, hunyuan, minimax, phi, command, grok, k2/k3…) or says chat/instruct → chat.
// 5. Anything else → other: a model we cannot place is not offered where a chat model is expected.
import type { Model } from '../gateway/types';

export type ModelKind = 'chat' | 'video' | 'other';

export const KNOWN_CHAT_MODELS: ReadonlySet<string> = new Set(['model-k3', 'model-5.2']);

const VIDEO = /video/i;
const OTHER_MODALITY =
  /(^|[-_./:\s])(image|images|img|dall-e|tts|speech|audio|whisper|transcribe|transcription|embedding|embeddings|embed|moderation|rerank|reranker)([-_./:\s\d]|$)/i;
const CHAT_FAMILY =
  /(^|[-_./:])(gpt|chatgpt|o[1-9]|claude|gemini|gemma|llama|mistral|mixtral|codestral|qwen|qwq|deepseek|kimi|moonshot|glm|chatglm|yi|ernie|doubao|hunyuan|minimax|abab|phi|command|grok|k[1-9])([-_./:\d]|$)/i;
const CHAT_WORD = /(^|[-_./:])(chat|instruct|completions?|text)([-_./:\d]|$)/i;

export function classifyModel(model: Pick<Model, 'id'> & Partial<Model>): ModelKind {
  const explicit = explicitKind(model);
  if (explicit) return explicit;
  if (VIDEO.test(model.id) || (typeof model.owned_by === 'string' && VIDEO.test(model.owned_by))) return 'video';
  if (OTHER_MODALITY.test(model.id)) return 'other';
  if (KNOWN_CHAT_MODELS.has(model.id) || CHAT_FAMILY.test(model.id) || CHAT_WORD.test(model.id)) return 'chat';
  return 'other';
}

const HINT_FIELDS = ['type', 'modality', 'modalities', 'task', 'capabilities', 'endpoints', 'supported_endpoints', 'output_modalities'];

/** The kind named by a gateway's own metadata, if it names exactly one. */
function explicitKind(model: Partial<Model>): ModelKind | undefined {
  const words = HINT_FIELDS.flatMap((field) => hintWords(model[field])).map((w) => w.toLowerCase());
  if (words.length === 0) return undefined;
  if (words.some((w) => w.includes('video'))) return 'video';
  if (words.some((w) => /chat|completion|^text|llm/.test(w))) return 'chat';
  if (words.some((w) => /image|audio|speech|embed|moderation|rerank|tts|transcri/.test(w))) return 'other';
  return undefined;
}

/** Strings in a hint field: a string, an array of strings, or the keys of an object whose values are true. */
function hintWords(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v === true)
      .map(([k]) => k);
  }
  return [];
}
