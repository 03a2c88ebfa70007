// Runs in each workbench window's extension host (the page's extensionTestsPath): does what the multi-window test
// asks, one command at a time, until it says `done`. Every request this extension host sends to the simulator is
// tagged with the window's name, so the simulator's log shows which window polled.
import * as diagnostics from 'node:diagnostics_channel';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension';
import type { VideoInstance } from '../../../src/videos/vscode/feature';
import type { ChatPanel } from '../../../src/chat/vscode/chatPanel';
import type { ChatPanelManager } from '../../../src/chat/vscode/chatPanelManager';
import type { UsageService } from '../../../src/usage/vscode/usageService';
import { EXTENSION_ID, until } from '../helpers';
import { CONTROL_URL_ENV, WINDOW_HEADER, type AgentId, type ChatState, type Command, type Envelope, type JobSummary, type Reply, type UsageSeen, type WindowState } from './protocol';

interface UndiciRequest {
  origin?: string | URL;
  addHeader(name: string, value: string): unknown;
}

function tagRequests(origin: string, tag: string): void {
  diagnostics.subscribe('undici:request:create', (message) => {
    const { request } = message as { request: UndiciRequest };
    if (String(request.origin) === origin) request.addHeader(WINDOW_HEADER, tag);
  });
}

class Agent {
  private api!: ModelGatewayApi;
  private origin = '';
  private chat: { manager: ChatPanelManager; panel: ChatPanel; drafts: string[] } | undefined;

  constructor(readonly id: AgentId) {}

  private get usage(): UsageService {
    return (this.api.testing.usage as () => UsageService)();
  }

  private get feature(): VideoInstance {
    return (this.api.testing.videos as { feature: VideoInstance }).feature;
  }

  async execute(command: Command): Promise<unknown> {
    switch (command.op) {
      case 'setup':
        this.origin = command.origin;
        tagRequests(command.origin, `${this.id.window}#${this.id.pid}`);
        this.api = await vscode.extensions.getExtension<ModelGatewayApi>(EXTENSION_ID)!.activate();
        await until(() => this.api.connection.origin === command.origin, 'the gateway URL from the user settings', 30_000);
        await vscode.commands.executeCommand('modelGateway.setApiKey', command.apiKey);
        await until(() => this.feature.service.pollBoundsMs.maxMs === 2_000, 'the poll settings', 30_000);
        return this.state();
      case 'submit': {
        const record = (await vscode.commands.executeCommand('modelGateway.generateVideo', { prompt: command.prompt })) as JobSummary;
        return summary(record);
      }
      case 'jobs':
        return this.feature.store.jobs(this.origin).map(summary);
      case 'state':
        return this.state();
      case 'showMessage':
        void vscode.window.showInformationMessage(command.text);
        return undefined;
      case 'chatOpen': {
        this.chat?.manager.dispose();
        const manager = (this.api.testing.chat as { createManager(folder: string): ChatPanelManager }).createManager(command.folder);
        const panel = command.sessionId ? await manager.openSession(command.sessionId) : await manager.newChat();
        if (!panel) throw new Error(`no chat ${command.sessionId} in ${command.folder}`);
        const drafts: string[] = [];
        let loaded = false;
        panel.onDidPost((message) => {
          if (message.type === 'init') loaded = true;
          if (message.type === 'draft') drafts.push(message.text);
        });
        this.chat = { manager, panel, drafts };
        await until(() => loaded, 'the chat webview to load', 60_000);
        return panel.sessionId;
      }
      case 'chatSend': {
        const panel = this.chat!.panel;
        await panel.handleMessage({ type: 'send', requestId: 1, text: command.text });
        await panel.controller.idle;
        await this.chat!.manager.flush();
        return this.chatState();
      }
      case 'chatState':
        return this.chatState();
      case 'usageBurst': {
        const { recorder } = this.usage;
        const call = (i: number) => recorder.record({ origin: this.origin, profile: 'default', operation: 'chat', surface: command.tag as never, model: 'burst', outcome: 'ok', usage: { prompt_tokens: i, completion_tokens: 1, total_tokens: i + 1 }, header: () => undefined });
        const records = await Promise.all(Array.from({ length: command.count }, (_, i) => call(i + 1)));
        if (records.some((r) => !r)) throw new Error('a record was not written');
        return undefined;
      }
      case 'usageRead': {
        const { records, damaged } = await this.usage.ledger.read();
        const bursts: UsageSeen['bursts'] = {};
        for (const r of records) if (r.surface.startsWith('burst-')) (bursts[r.surface] ??= []).push(r.inputTokens ?? -1);
        for (const tokens of Object.values(bursts)) tokens.sort((a, b) => a - b);
        return { bursts, damaged: damaged.length } satisfies UsageSeen;
      }
      case 'done':
        return undefined;
    }
  }

  private chatState(): ChatState {
    const { panel, drafts } = this.chat!;
    return { sessionId: panel.sessionId, turns: panel.controller.session.turns.map((t) => ({ role: t.role, content: t.content })), drafts };
  }

  private state(): WindowState {
    return { polling: this.feature.store.isPolling(this.origin), focused: vscode.window.state.focused };
  }
}

function summary(record: JobSummary): JobSummary {
  return { key: record.key, id: record.id, prompt: record.prompt, status: record.status, ...(record.localState && { localState: record.localState }) };
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

export async function run(): Promise<void> {
  const control = process.env[CONTROL_URL_ENV];
  if (!control) throw new Error(`${CONTROL_URL_ENV} is not set: this payload belongs to the multi-window test`);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
  const agent = new Agent({ window: path.basename(folder), pid: process.pid });
  console.log(`multi-window agent: ${agent.id.window} (extension host ${agent.id.pid}) at ${control}`);
  for (;;) {
    const response = await post(`${control}/next`, agent.id);
    if (!response.ok) throw new Error(`control channel: HTTP ${response.status}`);
    const envelope = (await response.json()) as Envelope | null;
    if (!envelope) continue; // nothing to do yet: ask again
    let reply: Reply;
    try {
      reply = { id: envelope.id, ok: true, value: await agent.execute(envelope.command) };
    } catch (error) {
      reply = { id: envelope.id, ok: false, error: error instanceof Error ? `${error.message}\n${error.stack}` : String(error) };
    }
    await post(`${control}/reply`, reply);
    if (envelope.command.op === 'done') return;
  }
}
