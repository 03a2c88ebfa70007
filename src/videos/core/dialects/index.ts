// The video dialects: one adapter per wire format, chosen by a profile's `dialect` setting. Pure.
import { dashscopeDialect } from './dashscope';
import { openaiDialect } from './openai';
import { openrouterDialect } from './openrouter';
import { specDialect } from './spec';
import { isDialectSetting } from '../../../settings/profileCheck';
import type { DialectName, DialectSetting, VideoDialect } from './types';
import { xaiDialect } from './xai';
import { dialectOfHost } from './detect';

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
 * The dialect a profile speaks without asking the gateway anything: `auto` decides from the base URL's host alone.
 * detect.ts's DialectDetector asks the gateway too (its model lists), on first need.
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

export { submitWire, pollWire, videoJobOfView, statusOfView, type DialectJobExtras } from './wire';
