// UI adapter: the long rate-limit wait's notice through the one UI seam, in a file of its own that loads with the
// first such wait, not at activation.
import { offerSendAnyway } from '../core/longWait';
import type { LongPaceWait } from '../../gateway/connection';
import { vscodeUserInterface } from './userInterface';

export function showLongWait(wait: LongPaceWait): Promise<void> {
  return offerSendAnyway(vscodeUserInterface, wait);
}
