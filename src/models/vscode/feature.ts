// UI adapter: the models feature: the shared model catalog, VS Code's language-model provider, and List Models /
// Refresh Models (modelCommands.ts, loaded on first use). Returns the catalogs the other features share (one per
// profile, modelCatalogs.ts).
import * as vscode from 'vscode';
import { createGatewayClient } from '../../gateway/clientFactory';
import { GatewayConnection } from '../../gateway/connection';
import type { ChatRequest, ChatResult } from '../../gateway/types';
import { lazyCommands } from '../../ui/vscode/commands';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import { vscodeProxySetting } from '../../ui/vscode/vscodeSettings';
import { ReportDocument } from '../../ui/vscode/reportDocument';
import { lazy } from '../../util/lazy';
import type { DialectNews } from '../core/dialectSection';
import { MODEL_COMMANDS } from './commands';
import { GatewayChatModelProvider, LM_VENDOR } from './lmProvider';
import { DEFAULT_TTL_MS, ModelCatalog } from '../core/modelCatalog';
import { ModelCatalogs } from '../core/modelCatalogs';
import { RememberedModels } from '../core/rememberedModels';
import type { TokenRatios } from '../core/tokenRatios';

// Each in its own file of the bundle. Characters per token: on the first chat answer or chat panel.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const tokenRatios = lazy(() => require('../core/tokenRatios') as typeof import('../core/tokenRatios'));
// The other profiles' models in VS Code's chat, with several profiles.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const lmProfiles = lazy(() => require('./lmProfiles') as typeof import('./lmProfiles'));
// List, Refresh and Diagnose Models on their first run.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const modelCommandsModule = lazy(() => require('./modelCommands') as typeof import('./modelCommands'));

export type ModelsNeeds = Pick<SharedServices, 'context' | 'log' | 'keys' | 'connection' | 'clock' | 'settings' | 'register' | 'testing' | 'ui'> & {
  /** The video feature, activated after this one: Diagnose Models asks it for the dialect. */
  videos?: () => { dialect(): Promise<DialectNews> };
};

export const modelsFeature = defineFeature({
  name: 'models',
  commands: MODEL_COMMANDS,
  views: [],
  activate({ context, log, keys, connection, clock, settings, register, testing, ui, videos }: ModelsNeeds): ModelCatalogs {
    const memory = new RememberedModels(context.globalState);
    // Its own file in the bundle, loaded on the first chat answer or chat panel, not at activation.
    const tokens = lazy<TokenRatios>(() => tokenRatios().TokenRatios.in(context.globalStorageUri.fsPath, clock));
    const models = new ModelCatalogs(connection, clock, DEFAULT_TTL_MS, memory, tokens);
    // Each chat answer's reported prompt tokens teach its model's characters per token (the chat's context meter).
    const learning = connection.onDidFinishCall((call) => {
      if (call.ok && call.method === 'chat') void tokens().observeAnswer(call.args[0] as ChatRequest, (call.value as ChatResult).usage);
    });
    const lmProvider = new GatewayChatModelProvider(models, connection, log, () => settings().reasoning, {
      more: (active) => (connection.profiles.length > 1 ? lmProfiles().profileModels(active, { connections: connection, catalogs: models, log, effortLevels: () => settings().reasoning.levels }) : undefined),
      warn: (message) => void ui().notify('warning', message),
    });
    // Diagnose Models' report document, registered now (its command loads on first use) for a report tab VS Code
    // restores after a reload.
    const report = new ReportDocument({ scheme: 'model-gateway-models', name: 'Model Gateway Models.md', title: 'models', command: 'Diagnose Models' });
    const modelCommands = lazy(() => new (modelCommandsModule().ModelCommands)({ catalog: models, connection, settings, report, ui: ui(), clock, ...(videos && { dialect: () => videos().dialect() }) }));
    // A profile added, removed or changed later may change the models in VS Code's chat; the list read at startup
    // (the first event) is not news: VS Code asking then could cost a request at startup.
    let startup = true;
    const profilesChanged = connection.onDidChangeProfiles(() => (startup ? (startup = false) : lmProvider.refresh()));
    context.subscriptions.push(report, models, learning, lmProvider, vscode.lm.registerLanguageModelChatProvider(LM_VENDOR, lmProvider), profilesChanged);
    lmProvider.announceRemembered();
    register(lazyCommands(MODEL_COMMANDS, () => modelCommands().handlers()));
    if (TEST_BUILD && testing) {
      testing.models = models;
      Object.defineProperty(testing, 'modelCommands', { get: modelCommands, enumerable: true });
      /** What the next session builds: its own connection, catalog and provider over the same storage (not registered). */
      testing.createModelsForTest = () => {
        const next = new GatewayConnection(settings().gateway, keys, createGatewayClient(log), clock, vscodeProxySetting());
        const catalog = new ModelCatalog(next, clock, DEFAULT_TTL_MS, new RememberedModels(context.globalState));
        const provider = new GatewayChatModelProvider(catalog, next, log, () => settings().reasoning, { warn: (message) => void ui().notify('warning', message) });
        return { connection: next, catalog, provider, dispose: () => [provider, catalog, next].forEach((d) => d.dispose()) };
      };
    }
    return models;
  },
});
