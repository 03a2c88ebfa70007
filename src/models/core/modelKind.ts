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
  return explainKind(model).kind;
}

/** The kind, and why (one sentence, for Diagnose Models): the rule above that decided it. */
export function explainKind(model: Pick<Model, 'id'> & Partial<Model>): { kind: ModelKind; why: string } {
  const explicit = explicitKind(model);
  // The word is the gateway's: only letters, digits and a few separators of it are repeated.
  if (explicit) return { kind: explicit.kind, why: `The model list says so: \`${explicit.field}\` names "${explicit.word.slice(0, 40).replace(/[^a-z0-9 ._/-]/g, '?')}".` };
  if (VIDEO.test(model.id)) return { kind: 'video', why: 'Its id names video (or a video family: sora, veo).' };
  if (typeof model.owned_by === 'string' && VIDEO.test(model.owned_by)) return { kind: 'video', why: 'Its owner names video.' };
  if (OTHER_MODALITY.test(model.id)) return { kind: 'other', why: 'Its id names a modality the extension does not use (embedding, transcription, audio, moderation, rerank…).' };
  if (SPEECH.test(model.id)) return { kind: 'speech', why: 'Its id names speech (tts, speech).' };
  if (IMAGE.test(model.id)) return { kind: 'image', why: 'Its id names images (image, dall-e, sdxl, flux…).' };
  return { kind: 'chat', why: 'Neither the model list nor its id names another kind; an OpenAI-compatible gateway\'s models are taken as chat models.' };
}

const HINT_FIELDS = ['type', 'mode', 'modality', 'modalities', 'task', 'category', 'capabilities', 'endpoints', 'supported_endpoints', 'output_modalities'];

const KIND_RULES: ReadonlyArray<[ModelKind, (w: string) => boolean]> = [
  ['video', (w) => w.includes('video')],
  ['chat', (w) => /chat|completion|^text$|^text[-_ ]generation|llm/.test(w)],
  ['other', (w) => /embed|moderation|rerank|transcri/.test(w)],
  ['speech', (w) => /speech|tts/.test(w)],
  ['image', (w) => /image/.test(w)],
  ['other', (w) => /audio/.test(w)],
];

/** The kind named by a gateway's own metadata, if it names exactly one, with the field and word that named it. */
function explicitKind(model: Partial<Model>): { kind: ModelKind; field: string; word: string } | undefined {
  const words = HINT_FIELDS.flatMap((field) => hintWords(model[field]).map((w) => ({ field, word: w.toLowerCase() })));
  if (words.length === 0) return undefined;
  for (const [kind, test] of KIND_RULES) {
    const hit = words.find((w) => test(w.word));
    if (hit) return { kind, ...hit };
  }
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
