// The video dialects: one adapter per wire format, chosen by a profile's `dialect` setting. Pure.
import { dashscopeDialect } from './dashscope';
import { openaiDialect } from './openai';
import { openrouterDialect } from './openrouter';
import { specDialect } from './spec';
import { isDialectSetting } from '../../../settings/profileCheck';
import type { DialectName, DialectSetting, VideoDialect } from './types';
import { xaiDialect } from './xai';

export * from './types';

const DIALECTS: Readonly<Record<DialectName, VideoDialect>> = {
  spec: specDialect,
  openai: openaiDialect,
  openrouter: openrouterDialect,
  xai: xaiDialect,
  dashscope: dashscopeDialect,
};

export function dialectOf(name: DialectName): VideoDialect {
  return DIALECTS[name];
}

export { isDialectSetting };

/** A stored dialect name (a job record's), or `spec` when it is missing or unknown: records of earlier versions were spec jobs. */
export function storedDialect(value: unknown): DialectName {
  return isDialectSetting(value) && value !== 'auto' ? value : 'spec';
}

/**
 * The dialect a profile speaks. `auto` decides from the base URL's host alone; what the gateway says about itself
 * (LiteLLM's /model/info, the model list's fields, a /videos/models list) is not consulted yet.
 */
export function resolveDialect(setting: DialectSetting | undefined, baseUrl: string): { dialect: DialectName; reason: string } {
  if (setting !== undefined && setting !== 'auto') return { dialect: setting, reason: `the profile's dialect setting is ${setting}` };
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return { dialect: 'spec', reason: 'the base URL could not be read' };
  }
  const byHost = dialectOfHost(host);
  return byHost ? { dialect: byHost, reason: `the gateway's host is ${host}` } : { dialect: 'spec', reason: `nothing known about ${host} names another dialect` };
}

function dialectOfHost(host: string): DialectName | undefined {
  if (host === 'openrouter.ai' || host.endsWith('.openrouter.ai')) return 'openrouter';
  if (host === 'api.x.ai') return 'xai';
  // dashscope.aliyuncs.com, dashscope-intl.aliyuncs.com, dashscope-us.aliyuncs.com, …
  if (host.startsWith('dashscope') && host.endsWith('.aliyuncs.com') && !host.slice(0, -'.aliyuncs.com'.length).includes('.')) return 'dashscope';
  return undefined;
}
export { submitWire, pollWire, videoJobOfView, statusOfView, type DialectJobExtras } from './wire';
