// UI adapter: the usage feature: every request the extension sends to a gateway becomes one ledger record (the
// connection publishes each finished call), the status bar shows today's and this month's spend, budget alerts, a
// confirmation before costly image and video requests, and the dashboard, export and clear commands. Activation
// only subscribes: the working part (usageService.ts) loads on the first call, command or a few seconds later.
import type { ModelCatalogs } from '../../models/core/api';
import { lazyCommands } from '../../ui/vscode/commands';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import { lazy } from '../../util/lazy';
import { USAGE_COMMANDS } from './commands';
import type { UsageApi } from '../core/api';
import type { UsageService } from './usageService';

// The ledger's recorder and status bar: on the first gateway call, command, or a few seconds after activation.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const usageServiceModule = lazy(() => require('./usageService') as typeof import('./usageService'));

export type UsageNeeds = Pick<SharedServices, 'context' | 'log' | 'connection' | 'clock' | 'register' | 'onDidChangeSettings' | 'testing' | 'ui'> & {
  models: ModelCatalogs;
};

/** Delay before the status bar first reads the ledger and old months are removed: never during activation. */
const START_DELAY_MS = 5_000;

export const usageFeature = defineFeature({
  name: 'usage',
  commands: USAGE_COMMANDS,
  views: [],
  /** Returns the feature's service (its api.ts): call costs for the chat, the ledger for VS Code's chat tools. */
  activate({ context, log, connection, clock, register, onDidChangeSettings, models, testing, ui }: UsageNeeds): UsageApi {
    const service = lazy<UsageService>(() => {
      const built = new (usageServiceModule().UsageService)({ context, log, clock, models, ui: ui(), onDidChangeSettings, connection });
      context.subscriptions.push(built);
      return built;
    });
    const start = clock.setTimeout(() => service().start(), START_DELAY_MS);
    // Every finished call becomes a record; the first one loads the service.
    const finished = connection.onDidFinishCall((call) => service().record(call));
    connection.setPaidCheck((call) => service().checkPaid(call));
    context.subscriptions.push(finished, { dispose: () => (clock.clearTimeout(start), connection.setPaidCheck(undefined)) });
    register(lazyCommands(USAGE_COMMANDS, () => service().commands().handlers()));
    if (TEST_BUILD && testing) testing.usage = service;
    return { costOf: (callId) => service().recorder.costOf(callId), ledger: () => service().ledger, prices: () => service().prices() };
  },
});
