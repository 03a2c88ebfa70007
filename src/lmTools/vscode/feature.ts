// UI adapter: the gateway in VS Code's own chat and agents: the language model tools (`gateway_*`, declared in
// package.json's `languageModelTools`) and the @gateway participant. Both are registered at activation; what they
// run (lmToolsRuntime.ts) loads on the first tool call or chat request. They reach the gateway only through the
// media and video features' services (their core/api.ts) and the shared model catalog: never the key itself.
import * as vscode from 'vscode';
import type { MediaApi } from '../../media/core/api';
import type { ModelCatalogs } from '../../models/core/api';
import { defineFeature, type SharedServices } from '../../ui/vscode/featureDefinition';
import { lazy } from '../../util/lazy';
import type { VideoApi } from '../../videos/core/api';

// What the tools and the participant run, on the first tool call or chat request.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const lmToolsRuntime = lazy(() => require('./lmToolsRuntime') as typeof import('./lmToolsRuntime'));
import { PARTICIPANT_ID, TOOL_NAMES } from '../core/participantIds';
import { LM_TOOLS_COMMANDS, REVEAL_JOB_COMMAND } from './commands';
import type { UsageApi } from '../../usage/core/api';

export type LmToolsNeeds = Pick<SharedServices, 'context' | 'settings' | 'clock' | 'testing'> & {
  models: ModelCatalogs;
  /** The media and video features' services (built at activation; getting them loads nothing). */
  media: MediaApi;
  videos: VideoApi;
  /** The usage feature's service, built on first use: the tools only read its ledger. */
  usage?: Pick<UsageApi, 'ledger' | 'prices'>;
};

export const lmToolsFeature = defineFeature({
  name: 'lmTools',
  commands: LM_TOOLS_COMMANDS,
  views: [],
  activate({ context, settings, models, media, videos, usage, clock, testing }: LmToolsNeeds): void {
    const runtime = lazy(() => {
      const module = lmToolsRuntime();
      // The host tests turn the confirmation off (VS Code asks in a modal dialog outside a chat); never the packaged extension.
      const confirmPaid = () => !(TEST_BUILD && testing?.lmToolsConfirm === false);
      const ports = module.toolPorts({ media, videos, models, settings, usage, clock });
      return { tools: new module.GatewayTools(ports, confirmPaid), participant: new module.GatewayParticipant(ports) };
    });
    for (const name of Object.values(TOOL_NAMES)) {
      context.subscriptions.push(
        vscode.lm.registerTool<unknown>(name, {
          prepareInvocation: (options) => runtime().tools.prepare(name, options),
          invoke: (options, token) => runtime().tools.invoke(name, options, token),
        }),
      );
    }
    const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, _context, stream, token) => runtime().participant.handle(request, stream, token));
    participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
    context.subscriptions.push(
      participant,
      vscode.commands.registerCommand(REVEAL_JOB_COMMAND, (key: unknown) => (typeof key === 'string' ? videos.reveal(key) : undefined)),
    );
    if (TEST_BUILD && testing) testing.lmTools = { prepare: (name: string, input: unknown) => runtime().tools.prepare(name, { input }) };
  },
});
