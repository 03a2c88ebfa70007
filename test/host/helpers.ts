// Shared by the extension-host suites: reaching the extension, waiting for a condition, and pointing the
// extension at a simulator.
import * as vscode from 'vscode';
import type { ModelGatewayApi } from '../../src/extension';
import type { Simulator } from '../simulator';

export const EXTENSION_ID = 'model-gateway.model-gateway';

export const config = () => vscode.workspace.getConfiguration('modelGateway');

export async function extensionApi(): Promise<ModelGatewayApi> {
  return vscode.extensions.getExtension<ModelGatewayApi>(EXTENSION_ID)!.activate();
}

/** Polls `probe` until it returns something truthy, which it resolves with. */
export async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 10_000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Sets the simulator as the user-level gateway and waits until the connection follows; optionally stores its key. */
export async function connectTo(api: ModelGatewayApi, sim: Simulator, options: { key?: string | false } = {}): Promise<void> {
  await config().update('baseUrl', sim.baseUrl, vscode.ConfigurationTarget.Global);
  await until(() => api.connection.origin === sim.origin, 'the connection to follow the setting');
  if (options.key !== false) await vscode.commands.executeCommand('modelGateway.setApiKey', options.key ?? sim.apiKey);
}

/** Clears the key and the gateway URL a suite set. */
export async function disconnect(): Promise<void> {
  await vscode.commands.executeCommand('modelGateway.clearApiKey', { confirm: false });
  await config().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
}
