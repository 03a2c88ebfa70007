// UI adapter: List Models (a quick pick grouped chat / video / image / speech / other, with actions per model) and
// Refresh Models.
import * as vscode from 'vscode';
import type { HandlersFor } from '../../ui/vscode/commands';
import { SHARED_COMMANDS } from '../../ui/core/commandIds';
import type { MODEL_COMMANDS } from './commands';
import type { BrowseList, BrowseRow, UserInterface } from '../../ui/vscode/userInterface';
import type { GatewayConnections } from '../../gateway/connections';
import { accessAdvice, adviceFor } from '../../ui/core/errorAdvice';
import type { CatalogSnapshot, ModelCatalog } from '../core/modelCatalog';
import { diagnoseModels, diagnosisMarkdown, type ModelDiagnosis } from '../core/modelDiagnosis';
import { dialectSection, type DialectNews } from '../core/dialectSection';
import type { Settings } from '../../settings/settings';
import type { Clock } from '../../util/clock';
import { LM_VENDOR } from './lmProvider';
import type { ReportDocument } from '../../ui/vscode/reportDocument';
import { ACTION_TITLES, buildModelList, summarizeModels, type DefaultModels, type ModelAction, type ModelListEntry, type ModelListGroup } from '../core/modelList';

export interface ModelCommandDeps {
  catalog: Pick<ModelCatalog, 'load'>;
  connection: GatewayConnections;
  settings: () => Settings;
  /** Diagnose Models' report document, registered at activation (a restored report tab asks for it first). */
  report: Pick<ReportDocument, 'show'>;
  ui: UserInterface;
  /** The active profile's video dialect and why (the video feature decides it, asking the gateway on first need). */
  dialect?(): Promise<DialectNews>;
  /** The time, to mark models that retire within 30 days. */
  clock: Clock;
}

const ACTION_ICONS: Record<ModelAction, string> = { startChat: 'comment-discussion', setDefaultChat: 'star-empty', setDefaultImage: 'star-empty', setDefaultSpeech: 'star-empty', copyId: 'copy' };

/** The setting each "Set as Default" action writes, and what it says after. */
const DEFAULT_SETTINGS: Partial<Record<ModelAction, { key: string; done: (id: string) => string }>> = {
  setDefaultChat: { key: 'chat.model', done: (id) => `New chats use ${id}.` },
  setDefaultImage: { key: 'image.model', done: (id) => `Generate Image uses ${id}.` },
  setDefaultSpeech: { key: 'speech.model', done: (id) => `Speech uses ${id}.` },
};

export class ModelCommands {
  constructor(private readonly deps: ModelCommandDeps) {}

  handlers(): HandlersFor<typeof MODEL_COMMANDS> {
    return {
      listModels: () => this.listModels(),
      refreshModels: () => this.refreshModels(),
      diagnoseModels: () => this.diagnoseModels(),
    };
  }

  /**
   * For each model: its kind and why, whether VS Code's model picker has it (asked of VS Code itself) and why not,
   * its context window and prices, what is sent to it; as a read-only report. Resolves with what it shows.
   */
  async diagnoseModels(): Promise<ModelDiagnosis[] | undefined> {
    if (!(await this.ensureConfigured())) return undefined;
    const origin = this.deps.connection.origin ?? 'the gateway';
    try {
      const snapshot = await this.deps.ui.withProgress(`Loading models from ${origin}…`, () => this.deps.catalog.load({ force: true }));
      if (!snapshot) return undefined;
      const inPicker = await vscode.lm.selectChatModels({ vendor: LM_VENDOR }).then(
        (models) => new Set(models.map((m) => m.id)),
        () => undefined,
      );
      const settings = this.deps.settings();
      const diagnoses = diagnoseModels(snapshot, {
        inPicker,
        reasoning: settings.reasoning,
        panelContextWindow: settings.chatContext.contextWindow,
        paths: settings.gateway.paths ?? { images: '/images/generations', speech: '/audio/speech' },
        defaults: this.defaultModels(),
        now: this.deps.clock.now(),
      });
      const dialect = this.deps.dialect ? await this.deps.dialect().then((d) => ({ d }), (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) })) : undefined;
      const video = dialect === undefined ? '' : 'd' in dialect ? dialectSection(dialect.d) : dialectSection(undefined, `Not decided: ${dialect.error}`);
      await this.deps.report.show(diagnosisMarkdown(origin, diagnoses, snapshot.remembered === true) + video);
      return diagnoses;
    } catch (error) {
      this.deps.ui.advise(adviceFor(error, { origin: this.deps.connection.origin }));
      return undefined;
    }
  }

  /** Shows the quick pick at once, busy until the list is there. Resolves with what it shows once loaded. */
  async listModels(): Promise<ModelListGroup[] | undefined> {
    if (!(await this.ensureConfigured())) return undefined;
    // The rows by model id, as the last load listed them (what a chosen row or button acts on).
    let entries = new Map<string, ModelListEntry>();
    const load = async (force: boolean): Promise<BrowseList<ModelListGroup[]> | undefined> => {
      try {
        const snapshot = await this.deps.catalog.load({ force });
        if (!snapshot) return undefined;
        const groups = buildModelList(snapshot, this.defaultModels(), this.deps.clock.now());
        entries = new Map(groups.flatMap((group) => group.entries.map((entry) => [entry.id, entry] as const)));
        return {
          groups: groups.map((group) => ({ title: group.title, rows: group.entries.map(toRow) })),
          placeholder: snapshot.models.length ? `${summarizeModels(snapshot.models)}. Enter for actions; buttons on each row.` : 'The gateway lists no models.',
          value: groups,
        };
      } catch (error) {
        this.deps.ui.advise(adviceFor(error, { origin: this.deps.connection.origin }));
        return undefined;
      }
    };
    const choose = (id: string, action?: string) => {
      const entry = entries.get(id);
      if (!entry) return;
      if (action) void this.run(action as ModelAction, entry.id);
      else void this.chooseAction(entry);
    };
    return this.deps.ui.browse({ title: `Models on ${this.deps.connection.origin ?? 'the gateway'}`, loading: 'Loading models…' }, load, choose);
  }

  /** Reloads the list from the gateway and says how many models it has. Returns the new list. */
  async refreshModels(): Promise<CatalogSnapshot | undefined> {
    if (!(await this.ensureConfigured())) return undefined;
    const origin = this.deps.connection.origin;
    try {
      const snapshot = await this.deps.ui.withProgress(`Loading models from ${origin}…`, () => this.deps.catalog.load({ force: true }));
      if (snapshot) void this.deps.ui.notify('info', `${origin} lists ${summarizeModels(snapshot.models)}.`);
      return snapshot;
    } catch (error) {
      this.deps.ui.advise(adviceFor(error, { origin }));
      return undefined;
    }
  }

  /** The user-level defaults (the only level these settings are read at). */
  private defaultModels(): DefaultModels {
    const config = vscode.workspace.getConfiguration('modelGateway');
    const user = (key: string) => config.inspect<string>(key)?.globalValue || undefined;
    return { chat: user('chat.model'), image: user('image.model'), speech: user('speech.model') };
  }

  private async chooseAction(entry: ModelListEntry): Promise<void> {
    const choice = await this.deps.ui.pickItem(
      entry.actions.map((action) => ({ label: `$(${ACTION_ICONS[action]}) ${ACTION_TITLES[action]}`, id: action })),
      { title: entry.id, placeHolder: entry.detail ?? '', matchOnDescription: false },
    );
    if (choice) await this.run(choice as ModelAction, entry.id);
  }

  async run(action: ModelAction, id: string): Promise<void> {
    const setting = DEFAULT_SETTINGS[action];
    if (setting) {
      await vscode.workspace.getConfiguration('modelGateway').update(setting.key, id, vscode.ConfigurationTarget.Global);
      void this.deps.ui.notify('info', setting.done(id));
      return;
    }
    switch (action) {
      case 'startChat':
        await vscode.commands.executeCommand(SHARED_COMMANDS.newChat, { model: id });
        return;
      case 'copyId':
        await this.deps.ui.copy(id);
        void this.deps.ui.notify('info', `Copied ${id}.`);
        return;
    }
  }

  /** True when a URL and key are set; otherwise says what is missing, with the command that fixes it. */
  private async ensureConfigured(): Promise<boolean> {
    const access = await this.deps.connection.access();
    if (!access.ok) this.deps.ui.advise(accessAdvice(access), 'warning');
    return access.ok;
  }
}

function toRow(entry: ModelListEntry): BrowseRow {
  return { id: entry.id, label: entry.id, description: entry.retiring ? `$(warning) ${entry.description}` : entry.description, detail: entry.detail, actions: entry.actions.map((action) => ({ id: action, title: ACTION_TITLES[action], icon: ACTION_ICONS[action] })) };
}
