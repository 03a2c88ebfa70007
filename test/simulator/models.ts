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

export function modelObject(id: string): { id: string; object: 'model'; created: number; owned_by: string } {
  return { id, object: 'model', created: CREATED[id], owned_by: 'model-gateway' };
}

export function modelList(): { object: 'list'; data: ReturnType<typeof modelObject>[] } {
  return { object: 'list', data: ALL_MODELS.map(modelObject) };
}
