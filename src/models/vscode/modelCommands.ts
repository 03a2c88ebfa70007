// UI adapter: List Models (a quick pick grouped chat / video / image / speech / other, with actions per model) and
// Refresh Models.
import * as vscode from 'vscode';
import type { HandlersFor } from '../../ui/vscode/commands';
import { SHARED_COMMANDS } from '../../ui/core/commandIds';
import type { MODEL_COMMANDS } from './commands';
import { vscodeUserInterface } from '../../ui/vscode/userInterface';
import type { GatewayConnections } from '../../gateway/connections';
import { accessAdvice, adviceFor } from '../../ui/core/errorAdvice';
import { showAdvice } from '../../ui/vscode/notify';
import type { CatalogSnapshot, ModelCatalog } from '../core/modelCatalog';
import { diagnoseModels, diagnosisMarkdown, type ModelDiagnosis } from '../core/modelDiagnosis';
import type { Settings } from '../../settings/settings';
import { LM_VENDOR } from './lmProvider';
import type { ReportDocument } from '../../ui/vscode/reportDocument';
import { ACTION_TITLES, buildModelList, summarizeModels, type DefaultModels, type ModelAction, type ModelListEntry, type ModelListGroup } from '../core/modelList';

export interface ModelCommandDeps {
  catalog: Pick<ModelCatalog, 'load'>;
  connection: GatewayConnections;
  settings: () => Settings;
  /** Diagnose Models' report document, registered at activation (a restored report tab asks for it first). */
  report: Pick<ReportDocument, 'show'>;
}

const ACTION_ICONS: Record<ModelAction, string> = { startChat: 'comment-discussion', setDefaultChat: 'star-empty', setDefaultImage: 'star-empty', setDefaultSpeech: 'star-empty', copyId: 'copy' };

/** The setting each "Set as Default" action writes, and what it says after. */
const DEFAULT_SETTINGS: Partial<Record<ModelAction, { key: string; done: (id: string) => string }>> = {
  setDefaultChat: { key: 'chat.model', done: (id) => `New chats use ${id}.` },
  setDefaultImage: { key: 'image.model', done: (id) => `Generate Image uses ${id}.` },
  setDefaultSpeech: { key: 'speech.model', done: (id) => `Speech uses ${id}.` },
};

interface ModelItem extends vscode.QuickPickItem {
  entry?: ModelListEntry;
}

interface ActionButton extends vscode.QuickInputButton {
  action: ModelAction;
}

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
      const snapshot = await vscodeUserInterface.withProgress(`Loading models from ${origin}…`, () => this.deps.catalog.load({ force: true }));
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
      });
      await this.deps.report.show(diagnosisMarkdown(origin, diagnoses, snapshot.remembered === true));
      return diagnoses;
    } catch (error) {
      void showAdvice(adviceFor(error, { origin: this.deps.connection.origin }));
      return undefined;
    }
  }

  /** Shows the quick pick at once, busy until the list is there. Resolves with what it shows once loaded. */
  async listModels(): Promise<ModelListGroup[] | undefined> {
    if (!(await this.ensureConfigured())) return undefined;
    const pick = vscode.window.createQuickPick<ModelItem>();
    pick.title = `Models on ${this.deps.connection.origin ?? 'the gateway'}`;
    pick.placeholder = 'Loading models…';
    pick.matchOnDetail = true;
    pick.busy = true;
    const refresh: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('refresh'), tooltip: 'Refresh' };
    pick.buttons = [refresh];
    let open = true;
    pick.onDidHide(() => {
      open = false;
      pick.dispose();
    });
    const fill = async (force: boolean): Promise<ModelListGroup[] | undefined> => {
      pick.busy = true;
      try {
        const snapshot = await this.deps.catalog.load({ force });
        if (!open) return undefined;
        if (!snapshot) {
          pick.hide();
          return undefined;
        }
        const groups = buildModelList(snapshot, this.defaultModels());
        pick.items = toItems(groups);
        pick.placeholder = snapshot.models.length ? `${summarizeModels(snapshot.models)}. Enter for actions; buttons on each row.` : 'The gateway lists no models.';
        return groups;
      } catch (error) {
        pick.hide();
        void showAdvice(adviceFor(error, { origin: this.deps.connection.origin }));
        return undefined;
      } finally {
        if (open) pick.busy = false;
      }
    };
    pick.onDidTriggerButton((button) => button === refresh && void fill(true));
    pick.onDidTriggerItemButton(({ item, button }) => {
      if (!item.entry) return;
      pick.hide();
      void this.run((button as ActionButton).action, item.entry.id);
    });
    pick.onDidAccept(() => {
      const entry = pick.selectedItems[0]?.entry;
      if (!entry) return;
      pick.hide();
      void this.chooseAction(entry);
    });
    pick.show();
    return fill(false);
  }

  /** Reloads the list from the gateway and says how many models it has. Returns the new list. */
  async refreshModels(): Promise<CatalogSnapshot | undefined> {
    if (!(await this.ensureConfigured())) return undefined;
    const origin = this.deps.connection.origin;
    try {
      const snapshot = await vscodeUserInterface.withProgress(`Loading models from ${origin}…`, () => this.deps.catalog.load({ force: true }));
      if (snapshot) void vscode.window.showInformationMessage(`${origin} lists ${summarizeModels(snapshot.models)}.`);
      return snapshot;
    } catch (error) {
      void showAdvice(adviceFor(error, { origin }));
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
    const choice = await vscode.window.showQuickPick(
      entry.actions.map((action) => ({ label: `$(${ACTION_ICONS[action]}) ${ACTION_TITLES[action]}`, action })),
      { title: entry.id, placeHolder: entry.detail },
    );
    if (choice) await this.run(choice.action, entry.id);
  }

  async run(action: ModelAction, id: string): Promise<void> {
    const setting = DEFAULT_SETTINGS[action];
    if (setting) {
      await vscode.workspace.getConfiguration('modelGateway').update(setting.key, id, vscode.ConfigurationTarget.Global);
      void vscode.window.showInformationMessage(setting.done(id));
      return;
    }
    switch (action) {
      case 'startChat':
        await vscode.commands.executeCommand(SHARED_COMMANDS.newChat, { model: id });
        return;
      case 'copyId':
        await vscode.env.clipboard.writeText(id);
        void vscode.window.showInformationMessage(`Copied ${id}.`);
        return;
    }
  }

  /** True when a URL and key are set; otherwise says what is missing, with the command that fixes it. */
  private async ensureConfigured(): Promise<boolean> {
    const access = await this.deps.connection.access();
    if (!access.ok) void showAdvice(accessAdvice(access), 'warning');
    return access.ok;
  }
}

function toItems(groups: readonly ModelListGroup[]): ModelItem[] {
  const items: ModelItem[] = [];
  for (const group of groups) {
    items.push({ label: group.title, kind: vscode.QuickPickItemKind.Separator });
    for (const entry of group.entries) {
      items.push({
        label: entry.id,
        description: entry.description,
        detail: entry.detail,
        entry,
        buttons: entry.actions.map((action): ActionButton => ({ action, iconPath: new vscode.ThemeIcon(ACTION_ICONS[action]), tooltip: ACTION_TITLES[action] })),
      });
    }
  }
  return items;
}
