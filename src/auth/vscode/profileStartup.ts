// UI adapter: reads the profile list right after activation (its own file, so activation loads none of it) and
// hands it to the connections; then picks this window's profile: the workspace's binding, else the user's last
// choice. The first start after the update writes the list with Default (today's URL, headers and key) and asks
// nothing. A list that cannot be read is set aside, and the user is told where it went.
import * as vscode from 'vscode';
import type { GatewayConnections } from '../../gateway/connections';
import type { Clock } from '../../util/clock';
import { NodeFileSystem } from '../../util/storeFileSystem';
import type { Logger } from '../../util/logger';
import { initialProfile } from '../core/profileChoice';
import { ProfileStore } from '../core/profileStore';

export async function startProfiles(context: vscode.ExtensionContext, clock: Clock, connection: GatewayConnections, log: Logger): Promise<ProfileStore> {
  const store = new ProfileStore(new NodeFileSystem(context.globalStorageUri.fsPath), clock);
  context.subscriptions.push(
    store,
    store.onDidChange((list) => connection.setProfiles(list)),
    store.onDidSetAside((path) => {
      log.warn(`The profile list could not be read; it was kept as ${path} and a new list was started.`);
      void vscode.window.showWarningMessage(`Model Gateway: the profile list could not be read. It was kept as ${path}, and a new list with the Default profile was started; nothing was deleted.`);
    }),
  );
  try {
    connection.setProfiles(await store.load());
  } catch (error) {
    // An unreadable folder (permissions, a lock held too long): Default still works, and the key commands with it.
    log.warn(`Could not read the profile list: ${error instanceof Error ? error.message : String(error)}`);
    void vscode.window.showWarningMessage(`Model Gateway: the profile list could not be read (${error instanceof Error ? error.message : String(error)}); only the Default profile is available until it can.`);
  }
  const choice = initialProfile(context.workspaceState, context.globalState);
  if (choice.bound) connection.setWorkspaceBinding(choice.id);
  connection.switchTo(choice.id);
  return store;
}
