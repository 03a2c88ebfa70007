// UI adapter: the usage commands, loaded on first use: Show Usage (the dashboard), Export Usage (`{ path }` writes
// without asking; from the palette it asks where) and Clear Usage (asks first).
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HandlersFor } from '../../ui/vscode/commands';
import type { UserInterface } from '../../ui/vscode/userInterface';
import { writeFileAtomic } from '../../util/atomicFile';
import { isRecord } from '../../util/records';
import { exportFormatOf, exportText } from '../core/exportFormat';
import type { Ledger } from '../core/ledger';
import { UsageDashboard } from './dashboardPanel';
import type { USAGE_COMMANDS } from './commands';

export { vscodeUserInterface } from '../../ui/vscode/userInterface';

export interface UsageCommandDeps {
  extensionUri: vscode.Uri;
  ledger: Ledger;
  ui: UserInterface;
  now(): number;
  budget(): { amount: number; profile: string } | undefined;
  profileName(id: string): string | undefined;
  gatewayAccount?: { line(): string | undefined; refresh(): Promise<unknown> };
  onDidRecord: vscode.Event<unknown>;
  log: Pick<vscode.LogOutputChannel, 'warn' | 'info' | 'error'>;
  /** After Clear Usage: the status bar reads again. */
  cleared(): void;
}

export class UsageCommands implements vscode.Disposable {
  readonly dashboard: UsageDashboard;

  constructor(private readonly deps: UsageCommandDeps) {
    this.dashboard = new UsageDashboard({
      extensionUri: deps.extensionUri,
      ledger: deps.ledger,
      now: deps.now,
      budget: deps.budget,
      profileName: deps.profileName,
      ...(deps.gatewayAccount && { gatewayAccount: deps.gatewayAccount }),
      onDidRecord: deps.onDidRecord,
      log: deps.log,
      exportUsage: () => this.exportUsage(),
      clearUsage: () => this.clearUsage(),
      openDamaged: () => deps.ui.showFile(vscode.Uri.file(deps.ledger.damagedFolder), 'os'),
    });
  }

  handlers(): HandlersFor<typeof USAGE_COMMANDS> {
    return {
      showUsage: () => this.dashboard.show(),
      exportUsage: (argument?: unknown) => this.exportUsage(argument),
      clearUsage: () => this.clearUsage(),
    };
  }

  /** Writes the ledger to `{ path }` (.json or .csv), or where the user says; resolves with the path written. */
  async exportUsage(argument?: unknown): Promise<string | undefined> {
    const given = isRecord(argument) && typeof argument.path === 'string' ? argument.path : undefined;
    let target: string;
    if (given !== undefined) {
      if (!path.isAbsolute(given) || !exportFormatOf(given)) throw new Error(`Export Usage needs an absolute path ending in .json or .csv, not "${given}".`);
      target = given;
    } else {
      const day = new Date(this.deps.now()).toISOString().slice(0, 10);
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
      const chosen = await this.deps.ui.saveDialog(vscode.Uri.joinPath(folder, `model-gateway-usage-${day}.csv`), { CSV: ['csv'], JSON: ['json'] }, 'Export');
      if (!chosen) return undefined;
      target = chosen.fsPath;
      if (!exportFormatOf(target)) target += '.csv';
    }
    const { records } = await this.deps.ledger.read();
    await writeFileAtomic(target, exportText(records, exportFormatOf(target)!));
    this.deps.log.info(`Usage: exported ${records.length} records to ${target}.`);
    if (given === undefined) this.deps.ui.status(`Exported ${records.length} usage records.`);
    return target;
  }

  /** Removes every record after asking; the damaged lines set aside stay. */
  async clearUsage(): Promise<boolean> {
    const clear = 'Clear Usage';
    const answer = await this.deps.ui.ask('warning', 'Clear all usage records?', "This removes the spend and token records of every window and profile. It cannot be undone; export them first if you need them.", clear);
    if (answer !== clear) return false;
    await this.deps.ledger.clear();
    this.deps.cleared();
    await this.dashboard.refresh();
    return true;
  }

  dispose(): void {
    this.dashboard.dispose();
  }
}
