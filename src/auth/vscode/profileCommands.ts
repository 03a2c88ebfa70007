// UI adapter: the profile commands: switch, create, edit, rename, duplicate, delete, bind to this workspace, export
// and import. Each takes arguments for scripts and keybindings (and then asks nothing), or asks through the
// UserInterface seam. Only these commands change the active profile; nothing switches by itself.
import * as vscode from 'vscode';
import type { GatewayConnections } from '../../gateway/connections';
import { isDefaultProfile, keySlot, type Profile, type ProfileInput } from '../../settings/profile';
import { checkProfileInput, isDialectSetting } from '../../settings/profileCheck';
import { SHARED_COMMANDS } from '../../ui/core/commandIds';
import type { HandlersFor } from '../../ui/vscode/commands';
import type { UserInterface } from '../../ui/vscode/userInterface';
import type { Memento } from '../../util/memento';
import type { ApiKeyStore } from '../core/apiKeyStore';
import { bindWorkspace, rememberChoice, workspaceBinding } from '../core/profileChoice';
import type { ProfileResult, ProfileStore } from '../core/profileStore';
import { pendingJobsOf, removalVia, removeProfile, safeOrigin } from '../core/profileRetire';
import { dialectChoices } from '../core/profileDialect';
import { editDefaultModels, MODEL_KINDS } from '../core/profileModels';
import { exportProfiles, planImport, resolveImport } from '../core/profileTransfer';
import { clearHeaderValues, filledValues, headerNames, profileOrigin, setHeaderValues, withValues } from '../core/headerSecrets';
import type { PROFILE_COMMANDS } from './commands';

export interface ProfileCommandDeps {
  profiles: ProfileStore;
  connection: GatewayConnections;
  keys: ApiKeyStore;
  workspaceState: Memento;
  globalState: Memento;
  ui: UserInterface;
  /** Video jobs of a profile (by its id, on any origin) that are still running; its keys are needed until they finish. */
  runningJobs(profileId: string): number;
  /** The URL and headers the settings give the Default profile, for an export. */
  defaultGateway(): { baseUrl: string | undefined; headers: Record<string, string> };
}

type CreateArgument = { name?: unknown; baseUrl?: unknown; headers?: unknown; models?: unknown; monthlyBudget?: unknown; dialect?: unknown };

export class ProfileCommands {
  constructor(private readonly deps: ProfileCommandDeps) {}

  handlers(): HandlersFor<typeof PROFILE_COMMANDS> {
    return {
      profilesMenu: () => this.menu(),
      profilesSwitch: (idOrName?: unknown) => this.switchProfile(idOrName),
      profilesCreate: (argument?: CreateArgument) => this.create(argument),
      profilesDelete: (idOrName?: unknown, options?: { confirm?: boolean }) => this.delete(idOrName, options),
    };
  }

  async menu(): Promise<void> {
    const active = this.deps.connection.active;
    const bound = workspaceBinding(this.deps.workspaceState) === active.id;
    const items = [
      { id: 'switch', label: '$(arrow-swap) Switch Profile…', description: `now: ${active.name}` },
      { id: 'create', label: '$(add) Create Profile…' },
      { id: 'edit', label: `$(edit) Edit "${active.name}"…` },
      { id: 'models', label: `$(symbol-class) Default Models of "${active.name}"…`, description: modelSummary(active) },
      { id: 'rename', label: `$(tag) Rename "${active.name}"…` },
      { id: 'duplicate', label: `$(copy) Duplicate "${active.name}"` },
      { id: 'delete', label: '$(trash) Delete Profile…' },
      { id: 'bind', label: bound ? '$(unlock) Stop Using This Profile in This Workspace' : '$(lock) Use This Profile in This Workspace' },
      { id: 'export', label: '$(export) Export Profiles…' },
      { id: 'import', label: '$(cloud-download) Import Profiles…' },
    ];
    const picked = await this.deps.ui.pickItem(items, { title: `Model Gateway profiles — ${active.name}`, placeHolder: 'Choose an action' });
    if (picked === 'switch') await this.switchProfile(undefined);
    else if (picked === 'create') await this.create(undefined);
    else if (picked === 'edit') await this.edit(active.id);
    else if (picked === 'models') await this.editModels(active.id);
    else if (picked === 'rename') await this.rename(active.id, undefined);
    else if (picked === 'duplicate') await this.duplicate(active.id);
    else if (picked === 'delete') await this.delete(undefined, undefined);
    else if (picked === 'bind') await this.useInWorkspace(bound ? null : active.id);
    else if (picked === 'export') await this.exportAll();
    else if (picked === 'import') await this.importFile();
  }

  /** Switches this window to a profile (id or name); asks which without one. Returns the profile's id. */
  async switchProfile(idOrName: unknown): Promise<string | undefined> {
    const profile = idOrName === undefined ? await this.pickProfile('Switch to which profile?') : this.named(idOrName);
    if (!profile) return undefined;
    this.deps.connection.switchTo(profile.id);
    await rememberChoice(this.deps.globalState, profile.id);
    return profile.id;
  }

  /** With `{ name, baseUrl, headers?, dialect? }` creates the profile without asking; returns its id. */
  async create(argument: CreateArgument | undefined): Promise<string | undefined> {
    if (argument && typeof argument === 'object') {
      const result = await this.createKeepingHeaders({ name: argument.name, baseUrl: argument.baseUrl, headers: argument.headers, models: argument.models, monthlyBudget: argument.monthlyBudget, dialect: argument.dialect });
      if (!result.ok) throw new Error(result.problem);
      return result.profile.id;
    }
    const name = await this.deps.ui.input({ title: 'New profile (1/3)', prompt: 'A name for the profile, such as Work or a customer\'s name.', validate: (text) => this.nameProblem(text) });
    if (name === undefined) return undefined;
    const baseUrl = await this.deps.ui.input({ title: `New profile "${name.trim()}" (2/3)`, prompt: 'The gateway\'s base URL, ending in /v1.', placeHolder: 'https://gateway.example.com/v1', value: this.deps.connection.baseUrl ?? '' });
    if (baseUrl === undefined) return undefined;
    const monthlyBudget = await this.askMonthlyBudget(`New profile "${name.trim()}" (3/3)`, undefined);
    if (monthlyBudget === false) return undefined;
    const result = await this.deps.profiles.create({ name, baseUrl, monthlyBudget });
    if (!result.ok) {
      void this.deps.ui.notify('error', result.problem);
      return undefined;
    }
    const switchNow = 'Switch to It';
    const setKey = 'Set Its API Key';
    const choice = await this.deps.ui.notify('info', `Created the profile "${result.profile.name}". It has no key yet.`, setKey, switchNow);
    if (choice === setKey) await vscode.commands.executeCommand(SHARED_COMMANDS.setApiKey, undefined, result.profile.id);
    if (choice === switchNow) await this.switchProfile(result.profile.id);
    return result.profile.id;
  }

  async edit(idOrName: unknown): Promise<boolean> {
    const profile = idOrName === undefined ? await this.pickProfile('Edit which profile?') : this.named(idOrName);
    if (!profile) return false;
    if (isDefaultProfile(profile)) {
      // Default's URL and headers are the user settings; the URL has its own command.
      await vscode.commands.executeCommand('workbench.action.openSettings', 'modelGateway.baseUrl modelGateway.requestHeaders');
      return true;
    }
    const baseUrl = await this.deps.ui.input({ title: `Edit "${profile.name}" (1/4)`, prompt: 'The gateway\'s base URL, ending in /v1. A key belongs to its origin: a new host needs its key set again.', value: profile.baseUrl });
    if (baseUrl === undefined) return false;
    const origin = profileOrigin(profile);
    const stored = origin ? await this.deps.keys.headerValues(keySlot(profile.id, origin)) : {};
    const headersText = await this.deps.ui.input({ title: `Edit "${profile.name}" (2/4)`, prompt: 'Extra request headers, as JSON (Authorization, Host and Cookie are not allowed). Their values are kept in secret storage with the key, and sent only to this gateway; a header left empty is not sent.', value: JSON.stringify(withValues(profile.headers, stored)), validate: (text) => (parseHeaders(text) === undefined ? 'Enter a JSON object such as {"X-Team": "blue"}, or {}.' : undefined) });
    if (headersText === undefined) return false;
    const dialect = await this.deps.ui.pickItem(dialectChoices(profile.dialect), { title: `Edit "${profile.name}" (3/4)`, placeHolder: 'The video dialect the gateway speaks (auto decides from what the gateway says about itself)' });
    if (!isDialectSetting(dialect)) return false;
    const monthlyBudget = await this.askMonthlyBudget(`Edit "${profile.name}" (4/4)`, profile.monthlyBudget);
    if (monthlyBudget === false) return false;
    const check = checkProfileInput({ name: profile.name, baseUrl, headers: parseHeaders(headersText), models: profile.models, monthlyBudget, dialect }, this.deps.profiles.all, profile.id);
    if (!check.ok) {
      void this.deps.ui.notify('error', check.problem);
      return false;
    }
    // The values go to SecretStorage first, in the slot of the origin the profile will reach; the list keeps the names.
    const target = profileOrigin(check.fields);
    if (target) await setHeaderValues(this.deps.keys, keySlot(profile.id, target), filledValues(check.fields.headers));
    const result = await this.deps.profiles.edit(profile.id, { baseUrl, headers: headerNames(check.fields.headers), monthlyBudget, dialect });
    if (!result.ok) void this.deps.ui.notify('error', result.problem);
    return result.ok;
  }

  /**
   * Creates a profile whose header values go to SecretStorage (under the id it is about to get, so no request is
   * ever made without them) and whose entry in the list keeps only the header names.
   */
  private async createKeepingHeaders(input: ProfileInput): Promise<ProfileResult> {
    const check = checkProfileInput(input, this.deps.profiles.all);
    if (!check.ok) return check;
    const id = this.deps.profiles.reserveId();
    const origin = profileOrigin(check.fields);
    const values = filledValues(check.fields.headers);
    const slot = origin && Object.keys(values).length > 0 ? keySlot(id, origin) : undefined;
    if (slot) await setHeaderValues(this.deps.keys, slot, values);
    const result = await this.deps.profiles.create({ ...input, headers: headerNames(check.fields.headers) }, id);
    if (!result.ok && slot) await clearHeaderValues(this.deps.keys, slot);
    return result;
  }

  /** The profile's default model per kind, asked kind by kind (profileModels.ts). */
  async editModels(idOrName: unknown): Promise<boolean> {
    const profile = idOrName === undefined ? await this.pickProfile('Default models of which profile?') : this.named(idOrName);
    return profile ? editDefaultModels(profile, this.deps.profiles, this.deps.ui) : false;
  }

  async rename(idOrName: unknown, newName: unknown): Promise<boolean> {
    const profile = idOrName === undefined ? await this.pickProfile('Rename which profile?') : this.named(idOrName);
    if (!profile) return false;
    const name = typeof newName === 'string' ? newName : await this.deps.ui.input({ title: `Rename "${profile.name}"`, prompt: 'The new name.', value: profile.name, validate: (text) => this.nameProblem(text, profile.id) });
    if (name === undefined) return false;
    const result = await this.deps.profiles.rename(profile.id, name);
    if (!result.ok) void this.deps.ui.notify('error', result.problem);
    return result.ok;
  }

  async duplicate(idOrName: unknown): Promise<string | undefined> {
    const profile = idOrName === undefined ? await this.pickProfile('Duplicate which profile?') : this.named(idOrName);
    if (!profile) return undefined;
    // The copy's header values are stored under its id first, so it never goes out without them.
    const id = this.deps.profiles.reserveId();
    const origin = profileOrigin(profile);
    const values = origin ? await this.deps.keys.headerValues(keySlot(profile.id, origin)) : {};
    if (origin && Object.keys(values).length > 0) await setHeaderValues(this.deps.keys, keySlot(id, origin), values);
    const result = await this.deps.profiles.duplicate(profile.id, id);
    if (!result.ok) {
      void this.deps.ui.notify('error', result.problem);
      return undefined;
    }
    void this.deps.ui.notify('info', `Created "${result.profile.name}", a copy of "${profile.name}" without its key.`);
    return result.profile.id;
  }

  /**
   * Deletes a profile and its key, after asking (`{ confirm: false }` skips the question). The active profile is
   * refused (switch first). A profile whose video jobs still run is retired instead: hidden at once, its key kept
   * for those jobs, and removed with its key when they have finished (profileRetire.ts).
   */
  async delete(idOrName: unknown, options: { confirm?: boolean } | undefined): Promise<boolean> {
    const profile = idOrName === undefined ? await this.pickProfile('Delete which profile?', (p) => !isDefaultProfile(p)) : this.named(idOrName);
    if (!profile) return false;
    const fail = (message: string, ...actions: string[]) => {
      void this.deps.ui.notify('error', message, ...actions).then((choice) => {
        if (choice === 'Switch Profile…') void this.switchProfile(undefined);
      });
      return false;
    };
    if (isDefaultProfile(profile)) return fail('The Default profile is the one your settings describe and cannot be deleted. Rename it, or clear its key.');
    if (profile.id === this.deps.connection.active.id) return fail(`"${profile.name}" is the profile this window uses. Switch to another profile first, then delete it.`, 'Switch Profile…');
    const removal = removalVia(this.deps.connection, { store: this.deps.profiles, keys: this.deps.keys, runningJobs: (id) => this.deps.runningJobs(id) });
    const running = pendingJobsOf(profile, removal);
    if (options?.confirm !== false) {
      const remove = running > 0 ? 'Delete When Jobs Finish' : 'Delete Profile';
      const detail = running > 0
        ? `It has ${running} video job${running === 1 ? '' : 's'} still running, checked with its key. The profile disappears now; its key stays until ${running === 1 ? 'that job has' : 'those jobs have'} finished, and is then removed. Its chats and media stay.`
        : 'Its chats, finished video jobs and media stay. The key is removed from this machine.';
      const choice = await this.deps.ui.ask('warning', `Delete the profile "${profile.name}" and its API key?`, detail, remove);
      if (choice !== remove) return false;
    }
    // Counted again once the user has answered: a job may have started under the profile while the question was
    // open (a script, a chat's /video, another window), and removing the key now would orphan it.
    const result = pendingJobsOf(profile, removal) > 0 ? await this.deps.profiles.retire(profile.id) : await removeProfile(profile, removal);
    if (!result.ok) return fail(result.problem);
    return true;
  }

  /** Binds this workspace to a profile (and switches to it); `null` removes the binding. */
  async useInWorkspace(idOrName: unknown): Promise<boolean> {
    if (idOrName === null) {
      await bindWorkspace(this.deps.workspaceState, undefined);
      this.deps.connection.setWorkspaceBinding(undefined);
      return true;
    }
    const profile = idOrName === undefined ? this.deps.connection.active : this.named(idOrName);
    if (!profile) return false;
    await bindWorkspace(this.deps.workspaceState, profile.id);
    this.deps.connection.switchTo(profile.id);
    this.deps.connection.setWorkspaceBinding(profile.id);
    return true;
  }

  async exportAll(): Promise<boolean> {
    const target = await this.deps.ui.saveDialog(vscode.Uri.file('model-gateway-profiles.json'), { JSON: ['json'] }, 'Export');
    if (!target) return false;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(exportProfiles(this.deps.profiles.profiles, this.deps.defaultGateway())));
    void this.deps.ui.notify('info', `Exported ${this.deps.profiles.profiles.length} profile(s) to ${target.fsPath}. Keys and header values are not exported (only header names): each teammate sets their own key and fills in the headers.`);
    return true;
  }

  async importFile(): Promise<number> {
    const file = await this.deps.ui.openDialog({ filters: { JSON: ['json'] }, title: 'Import Profiles' });
    if (!file) return 0;
    const stat = await vscode.workspace.fs.stat(file);
    if (stat.size > 1024 * 1024) {
      void this.deps.ui.notify('error', 'That file is larger than 1 MB; a profile export is much smaller.');
      return 0;
    }
    const plan = planImport(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)), this.deps.profiles.profiles);
    if (!plan.ok) {
      void this.deps.ui.notify('error', plan.problem);
      return 0;
    }
    let onClash: 'skip' | 'copy' = 'skip';
    if (plan.clashes.length > 0) {
      const copy = 'Import as Copies';
      const skip = 'Skip Those';
      const choice = await this.deps.ui.ask('warning', `${plan.clashes.length} profile name(s) exist already: ${plan.clashes.join(', ')}.`, 'Existing profiles are never replaced. Import those as copies under new names, or skip them?', copy, skip);
      if (choice === undefined) return 0;
      onClash = choice === copy ? 'copy' : 'skip';
    }
    const { added, problems } = await this.deps.profiles.addAll(resolveImport(plan.incoming, this.deps.profiles.profiles, onClash));
    const left = plan.left.length ? ` Fields not taken (this version does not use them, or they are too large): ${plan.left.join('; ')}.` : '';
    void this.deps.ui.notify(problems.length || left ? 'warning' : 'info', `Imported ${added.length} profile(s).${problems.length ? ` Not imported: ${problems.join(' ')}` : ''}${left} Set each one's API key before using it${added.some((p) => Object.keys(p.headers).length > 0) ? ', and fill in its header values with Edit Profile (they are not sent while empty)' : ''}.`);
    return added.length;
  }

  /** A profile the user can still use: a deleted one kept for its running jobs (retired) is not. */
  private named(idOrName: unknown): Profile | undefined {
    const profile = this.deps.connection.profile(String(idOrName));
    if (profile?.retired) {
      void this.deps.ui.notify('error', `The profile "${profile.name}" was deleted; it is kept only until its video jobs end.`);
      return undefined;
    }
    if (!profile) void this.deps.ui.notify('error', `There is no profile "${String(idOrName)}". Profiles: ${this.deps.profiles.profiles.map((p) => p.name).join(', ')}.`);
    return profile;
  }

  private async pickProfile(placeHolder: string, filter: (profile: Profile) => boolean = () => true): Promise<Profile | undefined> {
    const active = this.deps.connection.active.id;
    const items = this.deps.profiles.profiles.filter(filter).map((p) => ({ id: p.id, label: p.name, description: `${p.id === active ? '(active) ' : ''}${isDefaultProfile(p) ? (this.deps.connection.connectionFor(p.id)?.origin ?? 'no URL') : safeOrigin(p.baseUrl) ?? p.baseUrl}` }));
    const id = await this.deps.ui.pickItem(items, { title: 'Model Gateway profiles', placeHolder });
    return id === undefined ? undefined : this.deps.connection.profile(id);
  }

  /** The profile's monthly budget in USD: undefined when left empty (the setting's applies), false when dismissed. */
  private async askMonthlyBudget(title: string, current: number | undefined): Promise<number | undefined | false> {
    const text = await this.deps.ui.input({
      title,
      prompt: 'A monthly budget in USD: the usage ledger warns at 80% and 95% of it. Empty: the modelGateway.usage.monthlyBudget setting applies; 0: no alerts.',
      placeHolder: 'e.g. 25',
      value: current === undefined ? '' : String(current),
      validate: (entered) => (entered.trim() === '' || budgetOf(entered) !== undefined ? undefined : 'Enter an amount such as 25 or 12.50, or leave it empty.'),
    });
    if (text === undefined) return false;
    return text.trim() === '' ? undefined : budgetOf(text);
  }

  private nameProblem(text: string, id?: string): string | undefined {
    const name = text.trim();
    if (!name) return 'Enter a name.';
    const clash = this.deps.profiles.profiles.find((p) => p.id !== id && p.name.toLowerCase() === name.toLowerCase());
    return clash ? `A profile named "${clash.name}" exists already.` : undefined;
  }
}

/** "chat: m-1 · image: img-2", or nothing when the profile sets none. */
function modelSummary(profile: Profile): string | undefined {
  const set = MODEL_KINDS.filter(([kind]) => profile.models[kind]).map(([kind]) => `${kind}: ${profile.models[kind]}`);
  return set.length > 0 ? set.join(' · ') : undefined;
}

/** A typed amount of USD: plain digits with an optional fraction, at most a million. */
function budgetOf(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^[0-9]{1,7}(\.[0-9]{1,6})?$/.test(trimmed)) return undefined;
  const amount = Number(trimmed);
  return amount <= 1_000_000 ? amount : undefined;
}

function parseHeaders(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text.trim() || '{}') as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
