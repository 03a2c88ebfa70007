// Every setting the manifest declares, walked through the readers that read it: a setting that acts on data outside
// the workspace (the usage ledger, kept videos), on money, on what is sent or on where the key goes is read at user
// level only, declared application-scoped and listed in restrictedConfigurations. A cloned repository's
// .vscode/settings.json may change only what the short list below names.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readSettings, type SettingsSource } from '../../../src/settings/settings';
import { readUsageSettings } from '../../../src/usage/core/usageSettings';

const root = join(__dirname, '../../../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const declared = Object.keys(manifest.contributes.configuration.properties as Record<string, unknown>);
const properties = manifest.contributes.configuration.properties as Record<string, { scope?: string }>;
const restricted: string[] = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations;

/**
 * The settings a workspace may set, each because it changes only how this editor behaves for this workspace and
 * reaches no data outside it, no money and nothing the gateway is sent that the user has not seen first.
 */
const WORKSPACE_LOCAL: Record<string, string> = {
  // Which sizes the Generate Video picker offers; the user picks one.
  'modelGateway.video.resolutions': 'offered choices only',
  // How often a running job's status is asked (status checks are free); bounded 1–3600 s.
  'modelGateway.video.pollMinSeconds': 'poll pacing',
  'modelGateway.video.pollMaxSeconds': 'poll pacing',
  // A folder inside the workspace (workspaceSubfolder refuses anything outside it).
  'modelGateway.media.saveFolder': 'inside the workspace by construction',
  // Whether the spend is shown; shows, never changes, what is recorded.
  'modelGateway.usage.statusBar': 'display only',
  // The context meter's window for models the gateway's list gives none, and the largest file attached as text: what
  // is attached is the user's own choice, shown with its tokens before anything is sent.
  'modelGateway.chat.contextWindow': 'shown before sending',
  'modelGateway.chat.maxAttachmentKB': 'shown before sending',
};

/** Which keys each reader takes from the workspace (`value`) and from the user level only (`userValue`). */
function readsOf(): { workspace: Set<string>; user: Set<string> } {
  const workspace = new Set<string>();
  const user = new Set<string>();
  const spy: SettingsSource = {
    userValue: (key) => (user.add(key), undefined),
    value: (key) => (workspace.add(key), undefined),
  };
  readSettings(spy);
  readUsageSettings(spy);
  return { workspace, user };
}

describe('settings a repository may not set', () => {
  it('takes a workspace value only for the settings that are workspace-local by design', () => {
    const { workspace } = readsOf();
    const unexpected = [...workspace].filter((key) => !(key in WORKSPACE_LOCAL));
    assert.deepEqual(unexpected, [], 'read with the workspace value, though not workspace-local');
  });

  it('reads every declared setting, so none escapes this walk', () => {
    const { workspace, user } = readsOf();
    // Read elsewhere at user level (ModelCommands.defaultModels: inspect().globalValue); also read above.
    const unread = declared.filter((key) => !workspace.has(key) && !user.has(key));
    assert.deepEqual(unread, []);
  });

  it('declares every other setting application-scoped and restricted in untrusted workspaces', () => {
    for (const key of declared) {
      if (key in WORKSPACE_LOCAL) continue;
      assert.equal(properties[key]?.scope, 'application', `${key} is application-scoped`);
      assert.ok(restricted.includes(key), `${key} is listed in restrictedConfigurations`);
    }
    for (const key of restricted) assert.ok(declared.includes(key), `${key} in restrictedConfigurations is declared`);
    for (const key of Object.keys(WORKSPACE_LOCAL)) assert.ok(declared.includes(key), `${key} (workspace-local) is declared`);
  });

  it('has no other reader of the extension settings than the reviewed ones', () => {
    // Any new `getConfiguration(` bypasses the walk above: add it here only once it reads at user level.
    const reviewed = new Set(['src/ui/vscode/vscodeSettings.ts', 'src/auth/vscode/keyCommands.ts', 'src/models/vscode/modelCommands.ts']);
    const found = sources(join(root, 'src')).filter((file) => readFileSync(file, 'utf8').includes('getConfiguration('));
    assert.deepEqual(found.map((file) => relative(root, file).replace(/\\/g, '/')).filter((file) => !reviewed.has(file)), []);
  });
});

function sources(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sources(path));
    else if (name.endsWith('.ts')) files.push(path);
  }
  return files;
}
