// What a gateway model is for. The OpenAI /models layout gives no modality, but gateways add it in different
// places, so the kind is read from the first of these that names one (the dialect card's order):
//
// 1. OpenRouter's `architecture.output_modalities` / `input_modalities` (a top-level `output_modalities` too).
// 2. LiteLLM's `mode` (on the entry, or in `model_info` as /model/info gives it).
// 3. `supported_endpoints` / `endpoints`: the paths the model is served on.
// 4. A per-modality list the model came from (OpenRouter lists video models only at /videos/models).
// 5. Other fields some gateways add: `type`, `modality`/`modalities`, `task`, `category`, `capabilities`.
// 6. The id (or `owned_by`): video families, then modalities the extension does not use, speech, images.
// 7. Anything else → chat: on an OpenAI-compatible gateway a model with a name we do not know (a fine-tune, a house
//    model) is almost always a chat model. Offering it costs a clear 400 at worst; hiding it would make it unusable.
import type { Model } from '../../gateway/types';
import { isRecord } from '../../util/records';

export type ModelKind = 'chat' | 'video' | 'image' | 'speech' | 'other';

/** Which of the rules above decided a kind. */
export type KindSource = 'architecture' | 'mode' | 'endpoints' | 'list' | 'fields' | 'id' | 'default';

export interface KindVerdict {
  readonly kind: ModelKind;
  /** One sentence for Diagnose Models, naming the field that decided. */
  readonly why: string;
  readonly source: KindSource;
  /** The deciding field says it turns audio into text: Transcribe Audio File's model, never the chat's. */
  readonly transcribes?: true;
}

/** What is known of a model beyond its entry: the per-modality list it was found in. */
export interface KindHints {
  readonly listedIn?: 'videoModels';
}

const VIDEO = /video|(^|[-_./:])(sora|veo)([-_./:\d]|$)/i;
const WORD_START = '(^|[-_./:\\s])';
const WORD_END = '([-_./:\\s\\d]|$)';
const TRANSCRIPTION = new RegExp(`${WORD_START}(whisper|transcribe|transcription|stt)${WORD_END}`, 'i');
const OTHER_MODALITY = new RegExp(`${WORD_START}(whisper|transcribe|transcription|audio|embedding|embeddings|embed|moderation|rerank|reranker)${WORD_END}`, 'i');
const SPEECH = new RegExp(`${WORD_START}(tts|speech)${WORD_END}`, 'i');
const IMAGE = new RegExp(`${WORD_START}(image|images|img|dall-e|imagen|sdxl|stable-diffusion|flux|midjourney)${WORD_END}`, 'i');

type Entry = Pick<Model, 'id'> & Partial<Model>;

export function classifyModel(model: Entry, hints?: KindHints): ModelKind {
  return explainKind(model, hints).kind;
}

/** Whether the field that decides the model's kind says it transcribes (a chat model that also hears audio does not). */
export function transcribes(model: Entry): boolean {
  return explainKind(model).transcribes === true;
}

const transcribing = (verdict: KindVerdict): KindVerdict => ({ ...verdict, transcribes: true });

/** The kind, the rule that decided it and a sentence saying so (Diagnose Models). */
export function explainKind(model: Entry, hints: KindHints = {}): KindVerdict {
  return byArchitecture(model) ?? byMode(model) ?? byEndpoints(model) ?? byList(hints) ?? byFields(model) ?? byId(model);
}

/** The gateway's words are repeated only as letters, digits and a few separators, cut short. */
function shown(words: readonly string[]): string {
  return words
    .slice(0, 6)
    .map((w) => `"${w.slice(0, 40).replace(/[^a-z0-9 ._/-]/gi, '?')}"`)
    .join(', ');
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase()) : [];
}

function byArchitecture(model: Entry): KindVerdict | undefined {
  const arch = isRecord(model.architecture) ? model.architecture : {};
  const field = arch.output_modalities !== undefined ? 'architecture.output_modalities' : 'output_modalities';
  const out = strings(arch.output_modalities ?? model.output_modalities);
  if (out.length === 0) return undefined;
  const input = strings(arch.input_modalities ?? model.input_modalities);
  const verdict = (kind: ModelKind, what: string, f = field, words = out): KindVerdict => ({ kind, source: 'architecture', why: `\`${f}\` is ${shown(words)}: ${what}.` });
  if (out.includes('video')) return verdict('video', 'it makes video');
  if (out.includes('image')) return verdict('image', 'it makes images');
  if (out.some((m) => m.startsWith('embedding'))) return verdict('other', 'it makes embeddings, which the extension does not use');
  if (out.includes('audio') && !out.includes('text')) return verdict('speech', 'it makes speech');
  if (out.includes('text') && input.length > 0 && !input.includes('text') && input.includes('audio')) {
    return transcribing(verdict('other', 'it turns audio into text (transcription), which the chat does not use', 'architecture.input_modalities', input));
  }
  if (out.includes('text')) return verdict('chat', 'it answers in text');
  return undefined;
}

const MODES: Readonly<Record<string, ModelKind>> = {
  chat: 'chat',
  completion: 'chat',
  responses: 'chat',
  image_generation: 'image',
  image_edit: 'image',
  audio_speech: 'speech',
  video_generation: 'video',
  audio_transcription: 'other',
  embedding: 'other',
  rerank: 'other',
  moderation: 'other',
  moderations: 'other',
  realtime: 'other',
  ocr: 'other',
  search: 'other',
};

function byMode(model: Entry): KindVerdict | undefined {
  const info = isRecord(model.model_info) ? model.model_info : {};
  for (const [field, value] of [['mode', model.mode], ['model_info.mode', info.mode]] as const) {
    if (typeof value !== 'string') continue;
    const kind = MODES[value.toLowerCase()];
    if (!kind) continue;
    const verdict: KindVerdict = { kind, source: 'mode', why: `LiteLLM's \`${field}\` is ${shown([value])}.` };
    return value.toLowerCase() === 'audio_transcription' ? transcribing(verdict) : verdict;
  }
  return undefined;
}

/** Endpoint paths → kind, checked in this order: a chat model also served for images stays chat. */
const ENDPOINTS: ReadonlyArray<[ModelKind, (path: string) => boolean]> = [
  ['video', (p) => p.includes('video')],
  ['chat', (p) => p.endsWith('chat/completions') || p.endsWith('/responses') || p === 'responses' || p.endsWith('/messages') || p === 'chat'],
  ['speech', (p) => p.endsWith('audio/speech')],
  ['image', (p) => p.includes('images/')],
  ['other', (p) => /embeddings|transcriptions|translations|moderations|rerank/.test(p)],
];

function byEndpoints(model: Entry): KindVerdict | undefined {
  for (const field of ['supported_endpoints', 'endpoints'] as const) {
    const paths = hintWords(model[field]).map((w) => w.toLowerCase());
    for (const [kind, test] of ENDPOINTS) {
      const hit = paths.find(test);
      if (hit === undefined) continue;
      const verdict: KindVerdict = { kind, source: 'endpoints', why: `\`${field}\` lists ${shown([hit])}.` };
      return kind === 'other' && hit.includes('transcriptions') ? transcribing(verdict) : verdict;
    }
  }
  return undefined;
}

function byList(hints: KindHints): KindVerdict | undefined {
  if (hints.listedIn === 'videoModels') return { kind: 'video', source: 'list', why: 'The gateway lists it at `/videos/models`, its list of video models.' };
  return undefined;
}

const HINT_FIELDS = ['type', 'modality', 'modalities', 'task', 'category', 'capabilities'];

const KIND_RULES: ReadonlyArray<[ModelKind, (w: string) => boolean]> = [
  ['video', (w) => w.includes('video')],
  ['chat', (w) => /chat|completion|^text$|^text[-_ ]generation|llm/.test(w)],
  ['other', (w) => /embed|moderation|rerank|transcri/.test(w)],
  ['speech', (w) => /speech|tts/.test(w)],
  ['image', (w) => /image/.test(w)],
  ['other', (w) => /audio/.test(w)],
];

/** The kind named by another of the gateway's fields, if one names a kind. */
function byFields(model: Entry): KindVerdict | undefined {
  const words = HINT_FIELDS.flatMap((field) => hintWords(model[field]).map((w) => ({ field, word: w.toLowerCase() })));
  for (const [kind, test] of KIND_RULES) {
    const hit = words.find((w) => test(w.word));
    if (!hit) continue;
    const verdict: KindVerdict = { kind, source: 'fields', why: `The model list says so: \`${hit.field}\` names ${shown([hit.word])}.` };
    return kind === 'other' && (hit.word.includes('transcri') || hit.word.includes('speech-to-text')) ? transcribing(verdict) : verdict;
  }
  return undefined;
}

function byId(model: Entry): KindVerdict {
  const id = (kind: ModelKind, why: string): KindVerdict => ({ kind, source: 'id', why: `No field of the model list names its kind; ${why}` });
  if (VIDEO.test(model.id)) return id('video', 'its id names video (or a video family: sora, veo).');
  if (typeof model.owned_by === 'string' && VIDEO.test(model.owned_by)) return id('video', 'its owner names video.');
  if (TRANSCRIPTION.test(model.id)) return transcribing(id('other', 'its id names transcription (whisper, transcribe, stt), which the chat does not use.'));
  if (OTHER_MODALITY.test(model.id)) return id('other', 'its id names a modality the extension does not use (embedding, transcription, audio, moderation, rerank…).');
  if (SPEECH.test(model.id)) return id('speech', 'its id names speech (tts, speech).');
  if (IMAGE.test(model.id)) return id('image', 'its id names images (image, dall-e, sdxl, flux…).');
  return { kind: 'chat', source: 'default', why: 'Neither the model list nor its id names another kind; an OpenAI-compatible gateway\'s models are taken as chat models.' };
}

/** Strings in a hint field: a string, an array of strings (or of objects with a `path`), or the keys of an object whose values are true. */
function hintWords(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((v) => (typeof v === 'string' ? [v] : isRecord(v) && typeof v.path === 'string' ? [v.path] : []));
  if (isRecord(value)) {
    return Object.entries(value)
      .filter(([, v]) => v === true)
      .map(([k]) => k);
  }
  return [];
}
