// UI adapter: the gateway's language model tools and the @gateway participant, loaded on the first tool call or
// chat request (a CHUNK in scripts/build.mjs). The tools' outcomes (toolRunner) become VS Code tool results: text for
// the model, the image as a LanguageModelDataPart; the participant is in gatewayParticipant.ts.
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import * as vscode from 'vscode';
import type { MediaApi } from '../../media/core/api';
import type { ModelCatalog } from '../../models/core/api';
import type { Settings } from '../../settings/settings';
import type { ToolKind } from '../core/toolSpecs';
import type { UsageApi } from '../../usage/core/api';
import { costByPrices } from '../core/toolCost';
import type { Clock } from '../../util/clock';
import type { VideoApi } from '../../videos/core/api';
import type { UsageSource } from '../core/usageSummary';
import { invocationText, runTool, type ToolOutcome, type ToolPorts } from '../core/toolRunner';
import { GatewayParticipant } from './gatewayParticipant';
import { signalOf } from './tokenSignal';

export { GatewayParticipant };

/** The most image bytes handed back to the model as data; a larger file is only named (the model sees its path). */
const MAX_IMAGE_PART_BYTES = 8 * 1024 * 1024;

/** What the feature definition hands over: the ports are built here, on first use. */
export interface ToolSources {
  media: MediaApi;
  videos: VideoApi;
  models: Pick<ModelCatalog, 'models' | 'known'>;
  settings(): Pick<Settings, 'media' | 'video'>;
  /** The usage feature's service (built on first use): its ledger is read, every window's and profile's records, and its prices price the confirmation. */
  usage?: Pick<UsageApi, 'ledger' | 'prices'>;
  clock: Pick<Clock, 'now'>;
}

export function toolPorts({ media, videos, models, settings, usage, clock }: ToolSources): ToolPorts {
  const ledger: UsageSource | undefined = usage && { records: async (since) => (await usage.ledger().read(since)).records, now: () => clock.now() };
  return {
    ...(ledger && { usage: ledger }),
    // The same prices the ledger records by, so the confirmation states the figure the request will be counted at.
    // The gateway's prices come with its model list (the shared catalog's, loaded once if it was not yet).
    ...(usage && { estimatedCost: costByPrices(async () => (await models.models().catch(() => undefined), usage.prices())) }),
    media: () => media,
    videos: () => videos,
    models: async () => models.models(),
    resolvePath: (path: string) => {
      const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
      return isAbsolute(path) || !folder ? path : resolve(folder.uri.fsPath, path);
    },
    defaultModel: (kind: ToolKind) => {
      // No setting names a transcription model: the media core picks the first one listed.
      if (kind === 'transcription') return undefined;
      const configured = kind === 'image' ? settings().media.imageModel : kind === 'speech' ? settings().media.speechModel : settings().video.model;
      return configured || models.known()?.models.find((m) => m.kind === kind)?.id;
    },
  };
}

export class GatewayTools {
  /** `confirmPaid`: false only in the host tests, where VS Code would show a modal dialog no test can answer. */
  constructor(
    private readonly ports: ToolPorts,
    private readonly confirmPaid: () => boolean = () => true,
  ) {}

  async prepare(name: string, options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): Promise<vscode.PreparedToolInvocation> {
    const text = await invocationText(name, options.input, this.ports);
    return { invocationMessage: text.running, ...(text.confirm && this.confirmPaid() && { confirmationMessages: { title: text.confirm.title, message: new vscode.MarkdownString(text.confirm.message) } }) };
  }

  async invoke(name: string, options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const cancel = signalOf(token);
    try {
      return await toolResult(await runTool(name, options.input, this.ports, cancel.signal));
    } finally {
      cancel.dispose();
    }
  }
}

async function toolResult(outcome: ToolOutcome): Promise<vscode.LanguageModelToolResult> {
  const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelDataPart> = [new vscode.LanguageModelTextPart(outcome.ok ? outcome.text : `Error: ${outcome.text}`)];
  if (outcome.image) {
    const bytes = await readFile(outcome.image.path).catch(() => undefined);
    if (bytes && bytes.length <= MAX_IMAGE_PART_BYTES) parts.push(vscode.LanguageModelDataPart.image(bytes, outcome.image.contentType));
  }
  return new vscode.LanguageModelToolResult(parts);
}
