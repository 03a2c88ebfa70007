// What a gateway model is for. GET /v1/models gives no modality (the spec shows no response shape), so the kind
// is inferred, in this order (first match wins):
//
// 1. Explicit fields some gateways add: `type`, `mode` (LiteLLM), `modality`/`modalities`, `task`, `category`,
//    `capabilities`, `endpoints`/`supported_endpoints`, `output_modalities`. A value naming video → video;
//    chat/text/completions → chat; embedding, moderation, rerank, transcription → other; speech or TTS → speech;
//    image → image. Chat wins over image, so a vision chat model (`modalities: ["text", "image"]`) stays chat.
// 2. The id (or `owned_by`) contains "video" or names a video family (sora, veo) → video.
// 3. The id names a modality that is neither image nor speech (embedding, whisper, transcribe, audio,
//    moderation, rerank…) → other; then speech (tts, speech) → speech; then image (image, dall-e, sdxl, flux…) →
//    image.
// 4. Anything else → chat: the gateway's chat endpoint is OpenAI-compatible, and on such gateways a model with
//    a name we do not know (a fine-tune, a house model) is almost always a chat model. Offering it costs a
//    clear 400 at worst; hiding it would make it unusable.
import type { Model } from '../../gateway/types';

export type ModelKind = 'chat' | 'video' | 'image' | 'speech' | 'other';

const VIDEO = /video|(^|[-_./:])(sora|veo)([-_./:\d]|$)/i;
const WORD_START = '(^|[-_./:\\s])';
const WORD_END = '([-_./:\\s\\d]|$)';
const OTHER_MODALITY = new RegExp(`${WORD_START}(whisper|transcribe|transcription|audio|embedding|embeddings|embed|moderation|rerank|reranker)${WORD_END}`, 'i');
const SPEECH = new RegExp(`${WORD_START}(tts|speech)${WORD_END}`, 'i');
const IMAGE = new RegExp(`${WORD_START}(image|images|img|dall-e|imagen|sdxl|stable-diffusion|flux|midjourney)${WORD_END}`, 'i');

export function classifyModel(model: Pick<Model, 'id'> & Partial<Model>): ModelKind {
  const explicit = explicitKind(model);
  if (explicit) return explicit;
  if (VIDEO.test(model.id) || (typeof model.owned_by === 'string' && VIDEO.test(model.owned_by))) return 'video';
  if (OTHER_MODALITY.test(model.id)) return 'other';
  if (SPEECH.test(model.id)) return 'speech';
  if (IMAGE.test(model.id)) return 'image';
  return 'chat';
}

const HINT_FIELDS = ['type', 'mode', 'modality', 'modalities', 'task', 'category', 'capabilities', 'endpoints', 'supported_endpoints', 'output_modalities'];

/** The kind named by a gateway's own metadata, if it names exactly one. */
function explicitKind(model: Partial<Model>): ModelKind | undefined {
  const words = HINT_FIELDS.flatMap((field) => hintWords(model[field])).map((w) => w.toLowerCase());
  if (words.length === 0) return undefined;
  if (words.some((w) => w.includes('video'))) return 'video';
  if (words.some((w) => /chat|completion|^text$|^text[-_ ]generation|llm/.test(w))) return 'chat';
  if (words.some((w) => /embed|moderation|rerank|transcri/.test(w))) return 'other';
  if (words.some((w) => /speech|tts/.test(w))) return 'speech';
  if (words.some((w) => /image/.test(w))) return 'image';
  if (words.some((w) => /audio/.test(w))) return 'other';
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
