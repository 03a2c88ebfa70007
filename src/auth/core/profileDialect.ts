// The video dialect a profile's gateway speaks, as Edit Profile offers it: one line per setting with a word on who
// speaks it, the current one first. Pure.
import type { DialectSetting } from '../../settings/profile';
import { DIALECT_SETTINGS } from '../../settings/profileCheck';

const WORDS: Readonly<Record<DialectSetting, string>> = {
  auto: 'Decide from what the gateway says about itself (its host, /model/info, the model list, /videos/models)',
  spec: 'POST /videos/generations {input, parameters}: the gateway of this extension\'s own spec',
  openai: 'POST /videos, the OpenAI Videos shape: LiteLLM (Veo, Vertex, Runway, Azure), new-api and others',
  openrouter: 'OpenRouter\'s /videos, with frame images and a cost per job',
  xai: 'xAI Grok Imagine: /videos/generations with a flat body and request_id',
  dashscope: 'Alibaba DashScope\'s task API (Wan and others): /services/aigc/video-generation, /tasks/{id}',
};

/** The quick pick's items: each setting with its word, the profile's current one marked. */
export function dialectChoices(current: DialectSetting | undefined): Array<{ id: DialectSetting; label: string; description?: string; detail: string }> {
  const chosen = current ?? 'auto';
  return DIALECT_SETTINGS.map((setting) => ({ id: setting, label: setting, ...(setting === chosen && { description: '(current)' }), detail: WORDS[setting] }));
}

