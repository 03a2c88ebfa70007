// Where an image request goes: the images endpoints, or a chat completion that returns the images (OpenRouter,
// Vercel's gateway). The profile's dialect says so (`openrouter` serves images only through chat), or the model
// list does (OpenRouter's `architecture.output_modalities` naming `image`). Pure.
import type { DialectSetting } from '../../settings/profile';
import type { ImageRoute, Model } from '../../gateway/types';
import { isRecord } from '../../util/records';

/** `listed`: the model's entry in the profile's model list, when it is listed. */
export function imageRouteOf(dialect: DialectSetting | undefined, listed: Model | undefined): ImageRoute {
  if (dialect === 'openrouter') return 'chat';
  return outputsImages(listed) ? 'chat' : 'images';
}

function outputsImages(model: Model | undefined): boolean {
  const architecture = model?.architecture;
  if (!isRecord(architecture) || !Array.isArray(architecture.output_modalities)) return false;
  return architecture.output_modalities.some((m) => typeof m === 'string' && m.toLowerCase() === 'image');
}
