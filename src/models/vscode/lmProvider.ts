// UI adapter: the gateway's chat models in VS Code's own chat and for other extensions (vscode.lm), as the
// language model chat provider of vendor `model-gateway`. Nothing is sent at startup: until the gateway has
// answered a request in this session, VS Code is given the list remembered from the last one (ids and kinds,
// per gateway); the first request that works makes VS Code ask again, and the list is then loaded. Without a
// remembered list it is loaded when VS Code first asks, and only when a key is set. When VS Code is told the list
// changed: see lmAnnouncer.ts.
import * as vscode from 'vscode';
import type { GatewayConnections } from '../../gateway/connections';
import { accessAdvice, adviceFor } from '../../ui/core/errorAdvice';
import type { ChatDelta } from '../../gateway/types';
import { lazy } from '../../util/lazy';
import type { Logger } from '../../util/logger';
import { DEFAULT_EFFORT_LEVELS, type ReasoningSettings } from '../../settings/settings';
import { toChatInformation, type LmChatInformation, type LmMessage, type LmPart } from '../core/lmMapping';
import { ModelAnnouncer } from '../core/lmAnnouncer';
import type { CatalogSnapshot, ModelCatalog } from '../core/modelCatalog';

export const LM_VENDOR = 'model-gateway';


type Connection = Pick<GatewayConnections, 'access' | 'origin' | 'state' | 'onDidChangeState'> & Partial<Pick<GatewayConnections, 'ready'>>;

export class GatewayChatModelProvider implements vscode.LanguageModelChatProvider<LmChatInformation & vscode.LanguageModelChatInformation>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  private readonly announcer = new ModelAnnouncer();
  private readonly subscriptions: Array<{ dispose(): void }>;

  constructor(
    private readonly catalog: Pick<ModelCatalog, 'onDidChange' | 'known' | 'load'>,
    private readonly connection: Connection,
    private readonly log: Logger,
    /** How a reasoning effort is sent, and the levels offered when the model list names none. */
    private readonly reasoning: () => ReasoningSettings | undefined = () => undefined,
    /** For the models of the other profiles (lmProfiles.ts, loaded only when there are several profiles). */
    private readonly profileDeps?: { more(active: LmChatInformation[]): Promise<LmChatInformation[]> | undefined },
  ) {
    this.subscriptions = [
      catalog.onDidChange((snapshot) => this.announcer.onCatalog(snapshot) && this.changed.fire()),
      connection.onDidChangeState((state) => this.announcer.onState(state) && this.changed.fire()),
    ];
  }

  /**
   * Called once the provider is registered. VS Code's chat (restored with the window) may have asked every vendor
   * for models before this extension activated (onStartupFinished); with a remembered list it is told to ask
   * again, so the picker shows the gateway's models without a request.
   */
  /** Makes VS Code ask for the models again. */
  refresh(): void {
    this.changed.fire();
  }

  announceRemembered(): void {
    if (this.catalog.known()?.remembered) this.changed.fire();
  }

  async provideLanguageModelChatInformation(options: vscode.PrepareLanguageModelChatModelOptions): Promise<LmChatInformation[]> {
    // Asked at startup: the models are the chosen profile's (and the others'), never Default's by mistake.
    await this.connection.ready;
    let snapshot: CatalogSnapshot | undefined;
    const known = this.catalog.known();
    if (known?.remembered && this.connection.state.kind === 'unknown') {
      // No request yet in this session: answer from memory, if a key is still stored (reading it sends nothing).
      snapshot = (await this.connection.access()).ok ? known : undefined;
      this.announcer.provide(snapshot, false);
      const remembered = this.chatModels(snapshot);
      this.log.info(`VS Code chat: ${remembered.length} chat models remembered from the last model list (no request).`);
      return this.withProfiles(remembered);
    }
    try {
      snapshot = await this.catalog.load();
      this.announcer.provide(snapshot, true);
    } catch (error) {
      const advice = adviceFor(error, { origin: this.connection.origin });
      this.log.warn(`Could not list the gateway's models for VS Code chat: ${advice.message}`);
      snapshot = this.catalog.known();
      this.announcer.provide(snapshot, false);
      if (!options.silent) void vscode.window.showWarningMessage(`Model Gateway: ${advice.message}`);
    }
    return this.withProfiles(this.chatModels(snapshot));
  }

  private chatModels(snapshot: CatalogSnapshot | undefined): LmChatInformation[] {
    const levels = this.reasoning()?.levels ?? DEFAULT_EFFORT_LEVELS;
    return (snapshot?.models ?? []).filter((m) => m.kind === 'chat').map((m) => toChatInformation(m, levels));
  }

  /** With several profiles, every profile with a key contributes its models, each carrying its profile (lmProfiles.ts). */
  private async withProfiles(active: LmChatInformation[]): Promise<LmChatInformation[]> {
    return this.profileDeps?.more(active) ?? active;
  }

  async provideLanguageModelChatResponse(
    model: LmChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    // A model carries the profile that listed it: the request goes with that profile's key, whichever is active.
    const profiled = model as LmChatInformation & { profile?: string; model?: string };
    const access = await this.connection.access(profiled.profile);
    if (!access.ok) {
      // A model of a deleted profile: the way forward is another model (Change Chat Profile… moves our chats only).
      const advice = accessAdvice(access);
      throw vscode.LanguageModelError.NoPermissions(`Model Gateway: ${advice.message}${access.missing === 'profile' ? '' : ` Run "${advice.actions[0]?.title ?? 'Set API Key'}".`}`);
    }
    const { api } = access;
    const { toChatRequest, toLmToolCalls } = requestMapping();
    const request = toChatRequest({
      model: profiled.model ?? model.id,
      messages: messages.map(toLmMessage),
      tools: options.tools,
      toolMode: options.toolMode === vscode.LanguageModelChatToolMode.Required ? 'required' : 'auto',
      modelOptions: options.modelOptions,
      // Newer hosts pass the model picker's choices (the configuration schema above); older ones do not.
      modelConfiguration: (options as { modelConfiguration?: Record<string, unknown> }).modelConfiguration,
      effortFormat: this.reasoning()?.format,
    });
    const abort = new AbortController();
    const cancellation = token.onCancellationRequested(() => abort.abort());
    if (token.isCancellationRequested) abort.abort();
    try {
      const thinking = thinkingPart();
      const result = await api.chat(request, { surface: 'vscode-chat', signal: abort.signal, onDelta: (delta) => reportText(delta, progress, thinking) });
      for (const call of toLmToolCalls(result.toolCalls)) progress.report(new vscode.LanguageModelToolCallPart(call.callId, call.name, call.input));
    } catch (error) {
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      throw this.toLanguageModelError(error, model.id);
    } finally {
      cancellation.dispose();
    }
  }

  async provideTokenCount(_model: LmChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    return requestMapping().estimateTokens(typeof text === 'string' ? text : toLmMessage(text));
  }

  private toLanguageModelError(error: unknown, model: string): Error {
    const advice = adviceFor(error, { origin: this.connection.origin, model });
    this.log.warn(`VS Code chat request to ${model} failed: ${advice.message}`);
    const message = `Model Gateway: ${advice.message}`;
    if (advice.kind === 'auth' || advice.kind === 'forbidden') return vscode.LanguageModelError.NoPermissions(message);
    if (advice.kind === 'not_found') return vscode.LanguageModelError.NotFound(message);
    return new Error(message, { cause: error });
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}

type ThinkingPartClass = new (value: string) => vscode.LanguageModelResponsePart;

/**
 * VS Code's thinking part, where the host has one (LanguageModelThinkingPart, not in this engine's typings): probed
 * at run time. Without it the reasoning is left out: it is never sent as answer text.
 */
function thinkingPart(): ThinkingPartClass | undefined {
  const candidate = (vscode as unknown as { LanguageModelThinkingPart?: unknown }).LanguageModelThinkingPart;
  return typeof candidate === 'function' ? (candidate as ThinkingPartClass) : undefined;
}

function reportText(delta: ChatDelta, progress: vscode.Progress<vscode.LanguageModelResponsePart>, thinking: ThinkingPartClass | undefined): void {
  if (delta.reasoning && thinking) progress.report(new thinking(delta.reasoning));
  // A refusal is the model's answer too; VS Code has no part for it, so it is shown as text.
  const text = (delta.content ?? '') + (delta.refusal ?? '');
  if (text !== '') progress.report(new vscode.LanguageModelTextPart(text));
}

const ROLES: Partial<Record<number, LmMessage['role']>> = {
  [vscode.LanguageModelChatMessageRole.User]: 'user',
  [vscode.LanguageModelChatMessageRole.Assistant]: 'assistant',
  // System (3) is proposed API in newer hosts; VS Code's own chat sends it.
  3: 'system',
};

export function toLmMessage(message: vscode.LanguageModelChatRequestMessage): LmMessage {
  const content = message.content.map(toLmPart).filter((p): p is LmPart => p !== undefined);
  return { role: ROLES[message.role] ?? 'user', content, ...(message.name ? { name: message.name } : {}) };
}

/** Parts this provider cannot send (thinking, prompt-tsx outside a tool result, non-image data) are left out. */
function toLmPart(part: unknown): LmPart | undefined {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', value: part.value };
  // LanguageModelDataPart is not in this engine's stable typings: recognised by shape.
  const data = part as { mimeType?: unknown; data?: unknown };
  if (typeof data.mimeType === 'string' && /^image\//.test(data.mimeType) && data.data instanceof Uint8Array) return { kind: 'image', mimeType: data.mimeType, data: data.data };
  if (part instanceof vscode.LanguageModelToolCallPart) return { kind: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) return { kind: 'toolResult', callId: part.callId, content: toolResultText(part.content) };
  return undefined;
}

function toolResultText(content: readonly unknown[]): string {
  return content
    .map((item) => {
      if (item instanceof vscode.LanguageModelTextPart) return item.value;
      if (item instanceof vscode.LanguageModelPromptTsxPart) return JSON.stringify(item.value);
      const data = item as { mimeType?: unknown; data?: unknown };
      if (typeof data.mimeType === 'string' && data.data instanceof Uint8Array && /^text\/|json/.test(data.mimeType)) return new TextDecoder().decode(data.data);
      return typeof item === 'string' ? item : '';
    })
    .join('');
}

/** The request side of the mapping: its own file in the bundle, loaded with VS Code's first request or count. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const requestMapping = lazy(() => require('../core/lmRequestMapping') as typeof import('../core/lmRequestMapping'));
