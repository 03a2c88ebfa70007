// Which of the gateway's models can chat. GET /v1/models gives no type, so models named for another modality
// (video, image, speech, embeddings) are left out.
import type { Model } from '../gateway/types';

const OTHER_MODALITY = /(^|[-_./:])(video|image|images|img|tts|speech|audio|whisper|transcribe|embedding|embeddings|embed|moderation|dall-e|sora)([-_./:]|$)/i;

export function isChatModel(model: Pick<Model, 'id'>): boolean {
  return !OTHER_MODALITY.test(model.id);
}

export function chatModelIds(models: readonly Model[]): string[] {
  return models.filter(isChatModel).map((m) => m.id);
}

/** The model for a new chat: the configured default, else the first chat model listed. */
export function pickDefaultModel(configured: string | undefined, listed: readonly string[]): string | undefined {
  return configured || listed[0];
}
