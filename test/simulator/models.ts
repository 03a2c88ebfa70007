// The models the simulated gateway offers.

export const CHAT_MODELS = ['model-k3', 'model-5.2'] as const;
export const VIDEO_MODEL = 'model-1.0-video-edit';
export const IMAGE_MODEL = 'model-image-1.0';
/** Served but not listed (an alias), so no price is known for it: what an unknown cost looks like. */
export const UNPRICED_IMAGE_MODEL = 'model-image-0.9';
export const SPEECH_MODEL = 'model-speech-1.0';
/** Listed last, as gateways list whisper beside the chat models: the default a transcription without a model takes. */
export const TRANSCRIBE_MODEL = 'model-transcribe-1.0';
export const ALL_MODELS: readonly string[] = [...CHAT_MODELS, VIDEO_MODEL, IMAGE_MODEL, SPEECH_MODEL, TRANSCRIBE_MODEL];

/** Fixed creation times so the listing is stable across runs. */
const CREATED: Record<string, number> = {
  'model-k3': 1735689600,
  'model-5.2': 1748736000,
  [VIDEO_MODEL]: 1751328000,
  [IMAGE_MODEL]: 1754006400,
  [SPEECH_MODEL]: 1756684800,
  [TRANSCRIBE_MODEL]: 1759276800,
};

export function isKnownModel(id: string): boolean {
  return ALL_MODELS.includes(id);
}

/** Only model-5.2 says more about itself: its context window and that it reads images. model-k3 says nothing and
 * refuses images in chat (see chat.ts). */
export const VISION_MODEL = 'model-5.2';
export const VISION_MODEL_CONTEXT = 200_000;
// Prices, as real gateways list them (the usage ledger reads both layouts): model-k3 in OpenRouter's `pricing`
// (strings, USD per token), the others in LiteLLM's `*_cost_per_*` fields (numbers).
export const PRICES = {
  'model-k3': { pricing: { prompt: '0.0000005', completion: '0.0000015', request: '0' } },
  [VISION_MODEL]: { input_cost_per_token: 0.000003, output_cost_per_token: 0.000015, cache_read_input_token_cost: 0.0000003 },
  [IMAGE_MODEL]: { output_cost_per_image: 0.04 },
  [VIDEO_MODEL]: { output_cost_per_second: 0.1 },
  [SPEECH_MODEL]: { input_cost_per_character: 0.000015 },
} as const;

/** Models whose answers carry LiteLLM's cost header (`x-litellm-response-cost`); the others leave it to the prices. */
export const COST_HEADER = 'x-litellm-response-cost';
export const REPORTS_COST: readonly string[] = [VISION_MODEL, IMAGE_MODEL];

/** The cost the gateway reports for a chat reply, as LiteLLM would (plain decimal text). */
export function chatCostHeader(model: string, usage: { prompt_tokens: number; completion_tokens: number }): Record<string, string> {
  if (model !== VISION_MODEL) return {};
  const price = PRICES[VISION_MODEL];
  return { [COST_HEADER]: (usage.prompt_tokens * price.input_cost_per_token + usage.completion_tokens * price.output_cost_per_token).toFixed(10) };
}

/** model-5.2 is also the reasoning model: it lists the parameters it takes and its effort levels. */
export const REASONING_MODEL = 'model-5.2';
export const EFFORT_LEVELS: readonly string[] = ['low', 'medium', 'high'];
const EXTRA: Record<string, Record<string, unknown>> = {
  [VISION_MODEL]: {
    context_length: VISION_MODEL_CONTEXT,
    input_modalities: ['text', 'image'],
    supported_parameters: ['temperature', 'top_p', 'max_tokens', 'stop', 'tools', 'tool_choice', 'response_format', 'reasoning_effort'],
    reasoning_effort_levels: EFFORT_LEVELS,
  },
};

export function acceptsImages(id: string): boolean {
  return id === VISION_MODEL;
}

export function modelObject(id: string): { id: string; object: 'model'; created: number; owned_by: string; [extra: string]: unknown } {
  return { id, object: 'model', created: CREATED[id], owned_by: 'model-gateway', ...EXTRA[id], ...PRICES[id as keyof typeof PRICES] };
}

export function modelList(listed: readonly string[] = ALL_MODELS): { object: 'list'; data: ReturnType<typeof modelObject>[] } {
  return { object: 'list', data: listed.map(modelObject) };
}

/**
 * OpenRouter's /videos/models list (served only when the simulator is started with `videoModels`): the video model
 * with the durations, resolutions and aspect ratios it allows. A value outside them is still accepted by the
 * simulator's own job API, so a test sees whether the extension refused it before sending.
 */
export const VIDEO_MODEL_ALLOWED = { durations: [4, 6, 8], resolutions: ['720p', '1080p'], sizes: ['1280x720'], aspectRatios: ['16:9', '9:16'] } as const;

export function videoModelList(): { data: Record<string, unknown>[] } {
  return {
    data: [
      {
        id: VIDEO_MODEL,
        name: 'Simulated video edit model',
        supported_durations: VIDEO_MODEL_ALLOWED.durations,
        supported_resolutions: VIDEO_MODEL_ALLOWED.resolutions,
        supported_sizes: VIDEO_MODEL_ALLOWED.sizes,
        supported_aspect_ratios: VIDEO_MODEL_ALLOWED.aspectRatios,
        supported_frame_images: ['first_frame'],
        generate_audio: false,
        pricing_skus: { per_second: '0.1' },
      },
    ],
  };
}

/** Each model's modalities as OpenRouter puts them, under `architecture` (option `openrouterModels`). */
const ARCHITECTURE: Record<string, { input_modalities: string[]; output_modalities: string[] }> = {
  'model-k3': { input_modalities: ['text'], output_modalities: ['text'] },
  [VISION_MODEL]: { input_modalities: ['text', 'image'], output_modalities: ['text'] },
  [IMAGE_MODEL]: { input_modalities: ['text'], output_modalities: ['image'] },
  [SPEECH_MODEL]: { input_modalities: ['text'], output_modalities: ['audio'] },
};

/**
 * OpenRouter's /models (option `openrouterModels`): text-output models only, unless asked `?output_modalities=all`,
 * which adds the image and speech models. The video model is never here: OpenRouter lists it only at /videos/models.
 */
export function openrouterModelList(all: boolean): { object: 'list'; data: ReturnType<typeof modelObject>[] } {
  const listed = Object.keys(ARCHITECTURE).filter((id) => all || ARCHITECTURE[id].output_modalities.includes('text'));
  return { object: 'list', data: listed.map((id) => ({ ...modelObject(id), architecture: ARCHITECTURE[id] })) };
}
