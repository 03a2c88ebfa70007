// UI adapter (commands): what every video command is given, and how a command finds the job it acts on. Every job
// action looks the job up in the store by key, so a stale tree element can never act on data the store no longer has.
import type { GatewayConnections } from '../../gateway/connections';
import { DEFAULT_PROFILE_ID } from '../../settings/profile';
import type { OpenResultOptions } from '../../gateway/resultFetch';
import type { ModelCatalog } from '../../models/core/api';
import type { VideoDefaults } from '../../settings/settings';
import type { CommandUi } from './commandUi';
import type { AllowedParameters } from '../core/api';
import { isSpecJob, type VideoJobRecord } from '../core/jobRecord';
import type { JobStore } from '../core/jobStore';
import type { KeptFiles } from '../core/keptFiles';
import { quoted, statusText, type VideoJobNode } from '../core/jobPresentation';
import { checkResultUrl } from '../core/resultLinks';
import type { VideoPreviewPanels } from './videoPreviewPanel';

/** What the commands need from the view. */
export interface VideoJobsHost {
  selection(): readonly VideoJobNode[];
  reveal(key: string): Promise<void>;
  refresh(): void;
}

/** What the commands need from the video service. */
export interface VideoJobsService {
  readonly store: JobStore;
  /** The jobs the view shows (every profile's, on the gateway it uses now). */
  visibleJobs(): VideoJobRecord[];
  /** The copies of finished results kept before their links expire (the primary instance's only). */
  readonly kept?: KeptFiles;
  /** The first video model a profile's gateway lists (the default when none is set). */
  listedModel(profile?: string): Promise<string | undefined>;
  /** What the gateway allows for a model (VideoApi.allowedParameters); nothing is checked without it. */
  allowedParameters?(model: string, profile?: string): Promise<AllowedParameters | undefined>;
}

export interface VideoCommandContext {
  readonly service: VideoJobsService;
  readonly view: VideoJobsHost;
  readonly connection: GatewayConnections;
  readonly models: Pick<ModelCatalog, 'load'>;
  /** A profile's video defaults (by id or name); the active profile's without one. */
  settings(profile?: string): VideoDefaults;
  keyFor(origin: string): Promise<string | undefined>;
  readonly previews: VideoPreviewPanels;
  readonly ui: CommandUi;
  /** The injected clock's time: which listed models retire soon. */
  now(): number;
}

/**
 * How to fetch a job's result links: through the proxy the API calls use, with the gateway's key and headers for
 * its own origin only, and only while the job's profile still uses the job's gateway (the profile's key, never the
 * active profile's).
 */
export async function resultFetchOptionsFor(
  ctx: Pick<VideoCommandContext, 'connection'>,
  record: Pick<VideoJobRecord, 'origin' | 'profile' | 'dialect' | 'keyedUrls'>,
  url?: string,
): Promise<Pick<OpenResultOptions, 'proxy' | 'proxyStrictSSL' | 'credentials'>> {
  const profile = record.profile ?? DEFAULT_PROFILE_ID;
  const options = await ctx.connection.resultFetchOptions(profile);
  const { credentials: _credentials, ...withoutKey } = options;
  // A dialect names the links that need the key (content endpoints on the gateway); its other links are signed
  // storage links, fetched without it even on the gateway's own origin.
  const keyed = isSpecJob(record) || (url !== undefined && record.keyedUrls?.includes(url) === true);
  return keyed && record.origin === ctx.connection.connectionFor(profile)?.origin ? options : withoutKey;
}

export interface Target {
  record: VideoJobRecord;
  index: number;
}

function isNode(value: unknown): value is VideoJobNode {
  const v = value as Partial<VideoJobNode> | undefined;
  return typeof v === 'object' && v !== null && typeof v.key === 'string' && (v.kind === 'job' || v.kind === 'result');
}

/** The job (and result index) a command acts on: its argument (a key or a tree element), else the view's selection. */
export function targetOf(ctx: VideoCommandContext, argument: unknown): Target | undefined {
  const node = isNode(argument) ? argument : typeof argument === 'string' ? undefined : ctx.view.selection()[0];
  const key = typeof argument === 'string' ? argument : node?.key;
  if (!key) {
    void ctx.ui.notify('info', 'Select a video job in the Video Jobs view first.');
    return undefined;
  }
  const record = ctx.service.store.get(key);
  if (!record) {
    void ctx.ui.notify('info', 'That video job is no longer in the list.');
    return undefined;
  }
  return { record, index: node?.kind === 'result' ? node.index : 0 };
}

/** The target's result link, if it has one that may be opened. */
export function resultLinkOf(ctx: VideoCommandContext, argument: unknown): { target: Target; url: string } | undefined {
  const target = targetOf(ctx, argument);
  if (!target) return undefined;
  const url = target.record.resultUrls[target.index];
  if (url === undefined) {
    void ctx.ui.notify('info', `The video job ${quoted(target.record)} has no result yet (${statusText(target.record)}).`);
    return undefined;
  }
  const checked = checkResultUrl(url);
  if (!checked.ok) {
    void ctx.ui.notify('error', checked.reason);
    return undefined;
  }
  return { target, url };
}
