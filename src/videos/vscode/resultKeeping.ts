// The result keeper as the video service starts it, once a finished result waits to be kept (loaded with the video
// commands, not at activation): it downloads through the job's profile's proxy and key rules, within the download
// limit, and says which kept copies the quota removed.
import type { GatewayConnections } from '../../gateway/connections';
import type { VideoDefaults } from '../../settings/settings';
import { formatBytes } from '../../util/bytes';
import type { Clock } from '../../util/clock';
import type { Logger } from '../../util/logger';
import { downloadResult, thumbnailExtensionFor } from '../core/download';
import { MAX_THUMBNAIL_BYTES } from '../core/keptFiles';
import { evictOverQuota } from '../core/keptQuota';
import { ResultKeeper, type KeeperJobs } from '../core/resultKeeper';
import { resultFetchOptionsFor } from './sharedCommands';

export interface ResultKeepingDeps {
  folder: string;
  clock: Clock;
  jobs: KeeperJobs;
  connection: GatewayConnections;
  /** The active profile's video settings (the quota and the download limit). */
  settings(): VideoDefaults;
  log: Logger;
  /** Tells the user what was done without asking. */
  inform(text: string): void;
}

export function startResultKeeper({ folder, clock, jobs, connection, settings, log, inform }: ResultKeepingDeps): ResultKeeper {
  return new ResultKeeper({
    folder,
    clock,
    jobs,
    download: async (record, url, directory, stem, signal) => {
      const fetchOptions = await resultFetchOptionsFor({ connection }, record, url);
      return downloadResult(url, directory, stem, { ...fetchOptions, signal, maxBytes: settings().maxDownloadBytes });
    },
    // The same key rules as the result's: the key only where the dialect says the link needs it, on the profile's origin.
    downloadThumbnail: async (record, url, directory, stem, signal) => {
      const fetchOptions = await resultFetchOptionsFor({ connection }, record, url);
      return downloadResult(url, directory, stem, { ...fetchOptions, signal, maxBytes: Math.min(MAX_THUMBNAIL_BYTES, settings().maxDownloadBytes), fileType: thumbnailExtensionFor });
    },
    evict: evictOverQuota,
    quotaBytes: () => settings().keptQuotaBytes,
    onEvicted: ({ count, bytes, quotaBytes }) => {
      const text = `Model Gateway: removed ${count === 1 ? 'the kept copy of an older video' : `the kept copies of ${count} older videos`} (${formatBytes(bytes)}) to stay within modelGateway.video.keptQuotaMB (${formatBytes(quotaBytes)}). Their links still work until they expire.`;
      log.info(text);
      inform(text);
    },
    onError: (message) => log.warn(message),
  });
}
