// The context keys behind the walkthrough's completion events and the palette's `when` clauses follow what is
// true: a URL set, a key in secret storage (read back, not guessed from a state), a request that worked, a chat
// tab open anywhere.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../../src/extension';
import type { ExtensionContextKeys } from '../../../src/ui/vscode/contextKeys';
import type { Simulator } from '../../simulator';
import { startSimulator } from '../../simulator';
import { config, connectTo, disconnect, extensionApi, until } from '../helpers';

describe('context keys for the walkthrough and the palette', function () {
  this.timeout(60_000);
  let sim: Simulator;
  let api: ModelGatewayApi;
  let keys: ExtensionContextKeys;

  before(async () => {
    sim = await startSimulator();
    api = await extensionApi();
    keys = api.testing.contextKeys as ExtensionContextKeys;
    await disconnect();
  });

  after(async () => {
    await disconnect();
    await sim.close();
  });

  it('says a URL is set, then a key is stored, then the gateway answered', async () => {
    await until(() => keys.get('modelGateway.hasBaseUrl') === false, 'no URL');
    assert.equal(keys.get('modelGateway.hasApiKey'), false);
    await connectTo(api, sim, { key: false });
    await until(() => keys.get('modelGateway.hasBaseUrl') === true, 'the URL');
    await keys.checkKey();
    assert.equal(keys.get('modelGateway.hasApiKey'), false, 'a URL alone is not a key');
    assert.equal(keys.get('modelGateway.connected'), false);
    await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey);
    await until(() => keys.get('modelGateway.hasApiKey') === true, 'the key');
    assert.equal(keys.get('modelGateway.connected'), false, 'not yet: nothing was asked');
    await (await api.connection.api())!.listModels();
    await until(() => keys.get('modelGateway.connected') === true, 'connected');
    await vscode.commands.executeCommand('modelGateway.clearApiKey', { confirm: false });
    await until(() => keys.get('modelGateway.hasApiKey') === false, 'the key gone');
    assert.equal(keys.get('modelGateway.connected'), false);
  });

  it("follows the active profile's own key, not another profile's on the same gateway", async () => {
    await connectTo(api, sim);
    await until(() => keys.get('modelGateway.hasApiKey') === true, "Default's key");
    const spare = (await vscode.commands.executeCommand('modelGateway.profiles.create', { name: 'Keyless', baseUrl: sim.baseUrl })) as string;
    try {
      await vscode.commands.executeCommand('modelGateway.profiles.switch', spare);
      await until(() => api.connection.profile === spare, 'the switch');
      await keys.checkKey();
      assert.equal(keys.get('modelGateway.hasApiKey'), false, 'Keyless has no key, though Default has one for the same origin');
      assert.equal(await vscode.commands.executeCommand('modelGateway.setApiKey', sim.apiKey, spare), true);
      await until(() => keys.get('modelGateway.hasApiKey') === true, "Keyless's own key");
    } finally {
      await vscode.commands.executeCommand('modelGateway.profiles.switch', 'default');
      await vscode.commands.executeCommand('modelGateway.profiles.delete', spare, { confirm: false });
      await disconnect();
    }
  });

  it('says a chat is open while a chat tab exists, focused or not', async () => {
    await config().update('baseUrl', sim.baseUrl, vscode.ConfigurationTarget.Global);
    assert.equal(keys.get('modelGateway.chatOpen'), false);
    await vscode.commands.executeCommand('modelGateway.newChat');
    await until(() => keys.get('modelGateway.chatOpen') === true, 'chatOpen');
    const document = await vscode.workspace.openTextDocument({ content: 'another tab' });
    await vscode.window.showTextDocument(document, { preview: false });
    assert.equal(keys.get('modelGateway.chatOpen'), true, 'still open behind another tab');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until(() => keys.get('modelGateway.chatOpen') === false, 'chatOpen cleared');
  });
});
