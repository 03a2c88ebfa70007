// What a gateway model is for. GET /v1/models gives no modality (the spec shows no response shape), so the kind
// is inferred, in this order (first match wins):
//
// 1. Explicit fields some gateways add: `type`, `modality`/`modalities`, `task`, `category`, `capabilities`,
//    `endpoints`/`supported_endpoints`. A value naming video → video; chat/text/completions → chat;
//    image, audio, speech, embedding, moderation, rerank → other.
// 2. The id (or `owned_by`) contains "video" or names a video family (sora, veo) → video.
// 3. The id names another modality (embedding, image, tts, whisper, audio, speech, moderation, rerank…) → other.
// 4. Anything else → chat: the gateway's chat endpoint is OpenAI-compatible, and on such gateways a model with
//    a name we do not know (a fine-tune, a house model) is almost always a chat model. Offering it costs a
//    clear 400 at worst; hiding it would make it unusable.
import type { Model } from '../gateway/types';

export type ModelKind = 'chat' | 'video' | 'other';

const VIDEO = /video|(^|[-_./:])(sora|veo)([-_./:\d]|$)/i;
const OTHER_MODALITY =
  /(^|[-_./:\s])(image|images|img|dall-e|tts|speech|audio|whisper|transcribe|transcription|embedding|embeddings|embed|moderation|rerank|reranker|sdxl|stable-diffusion|flux|midjourney)([-_./:\s\d]|$)/i;

export function classifyModel(model: Pick<Model, 'id'> & Partial<Model>): ModelKind {
  const explicit = explicitKind(model);
  if (explicit) return explicit;
  if (VIDEO.test(model.id) || (typeof model.owned_by === 'string' && VIDEO.test(model.owned_by))) return 'video';
  if (OTHER_MODALITY.test(model.id)) return 'other';
  return 'chat';
}

const HINT_FIELDS = ['type', 'modality', 'modalities', 'task', 'category', 'capabilities', 'endpoints', 'supported_endpoints', 'output_modalities'];

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
