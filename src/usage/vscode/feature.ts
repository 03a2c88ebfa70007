// UI adapter: the usage feature: every request the extension sends to a gateway becomes one ledger record (the
// connection reports each finished call), the status bar shows today's and this month's spend, budget alerts, a
// confirmation before costly image and video requests, and the dashboard, export and clear commands. Activation
// only subscribes: the working part (usageService.ts) loads on the first call, command or a few seconds later.
import type { ModelCatalogs } from '../../models/core/api';
import { lazyCommands } from '../../ui/vscode/commands';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import type { UserInterface } from '../../ui/vscode/userInterface';
import { lazy } from '../../util/lazy';
import { USAGE_COMMANDS } from './commands';
import type { UsageService } from './usageService';

// The ledger's recorder and status bar: on the first gateway call, command, or a few seconds after activation.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const usageServiceModule = lazy(() => require('./usageService') as typeof import('./usageService'));

export type UsageNeeds = Pick<SharedServices, 'context' | 'log' | 'connection' | 'clock' | 'register' | 'onDidChangeSettings' | 'testing'> & {
  models: ModelCatalogs;
  ui?: UserInterface;
};

/** Delay before the status bar first reads the ledger and old months are removed: never during activation. */
const START_DELAY_MS = 5_000;

export const usageFeature = defineFeature({
  name: 'usage',
  commands: USAGE_COMMANDS,
  views: [],
  /** Returns the service, built on first use, whose ledger VS Code's chat tools read. */
  activate({ context, log, connection, clock, register, onDidChangeSettings, models, testing, ui }: UsageNeeds): () => UsageService {
    const service = lazy<UsageService>(() => {
      const built = new (usageServiceModule().UsageService)({ context, log, clock, models, ui, onDidChangeSettings, connection });
      context.subscriptions.push(built);
      return built;
    });
    const start = clock.setTimeout(() => service().start(), START_DELAY_MS);
    connection.setAccountant({ account: (call) => service().account(call), checkPaid: (call) => service().checkPaid(call) });
    context.subscriptions.push({ dispose: () => (clock.clearTimeout(start), connection.setAccountant(undefined)) });
    register(lazyCommands(USAGE_COMMANDS, () => service().commands().handlers()));
    if (TEST_BUILD && testing) testing.usage = service;
    return service;
  },
});
