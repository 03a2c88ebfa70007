// The models the simulated gateway offers.

export const CHAT_MODELS = ['model-k3', 'model-5.2'] as const;
export const VIDEO_MODEL = 'model-1.0-video-edit';
export const IMAGE_MODEL = 'model-image-1.0';
export const SPEECH_MODEL = 'model-speech-1.0';
export const ALL_MODELS: readonly string[] = [...CHAT_MODELS, VIDEO_MODEL, IMAGE_MODEL, SPEECH_MODEL];

/** Fixed creation times so the listing is stable across runs. */
const CREATED: Record<string, number> = {
  'model-k3': 1735689600,
  'model-5.2': 1748736000,
  [VIDEO_MODEL]: 1751328000,
  [IMAGE_MODEL]: 1754006400,
  [SPEECH_MODEL]: 1756684800,
};

export function isKnownModel(id: string): boolean {
  return ALL_MODELS.includes(id);
}

/** Only model-5.2 says more about itself: its context window and that it reads images. model-k3 says nothing and
 * refuses images in chat (see chat.ts). */
export const VISION_MODEL = 'model-5.2';
export const VISION_MODEL_CONTEXT = 200_000;
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
  return { id, object: 'model', created: CREATED[id], owned_by: 'model-gateway', ...EXTRA[id] };
}

export function modelList(): { object: 'list'; data: ReturnType<typeof modelObject>[] } {
  return { object: 'list', data: ALL_MODELS.map(modelObject) };
}
