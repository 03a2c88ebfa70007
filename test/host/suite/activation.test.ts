import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'model-gateway.model-gateway';

describe('activation', () => {
  it('activates in the real extension host', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `extension ${EXTENSION_ID} is installed`);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('registers every command it declares', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    await extension.activate();
    const declared: string[] = extension.packageJSON.contributes.commands.map((c: { command: string }) => c.command);
    assert.ok(declared.length > 0);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
  });

  it('declares each command in exactly one feature definition, and each feature command in package.json', async () => {
    const extension = vscode.extensions.getExtension<{ testing: { features: Array<{ name: string; commands: string[]; views: string[] }> } }>(EXTENSION_ID)!;
    const api = await extension.activate();
    const declared: string[] = extension.packageJSON.contributes.commands.map((c: { command: string }) => c.command);
    const owners = new Map<string, string[]>();
    for (const feature of api.testing.features) for (const id of feature.commands) owners.set(id, [...(owners.get(id) ?? []), feature.name]);
    assert.deepEqual(declared.filter((id) => owners.get(id)?.length !== 1), [], 'declared commands without exactly one feature');
    assert.deepEqual([...owners.keys()].filter((id) => !declared.includes(id)), [], 'feature commands package.json does not declare');
    const views = (Object.values(extension.packageJSON.contributes.views).flat() as Array<{ id: string; type?: string }>).map((v) => v.id);
    assert.deepEqual(api.testing.features.flatMap((f) => f.views).filter((id) => !views.includes(id)), [], 'feature views package.json does not contribute');
  });

  it("loads only dist/extension.js to activate: every feature's panels and commands load on first use", async () => {
    const extension = vscode.extensions.getExtension<{ testing: { loadedAtActivation: string[] } }>(EXTENSION_ID)!;
    const api = await extension.activate();
    assert.deepEqual(api.testing.loadedAtActivation, ['extension.js']);
  });

  it('contributes the video jobs view', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const views = Object.values(extension.packageJSON.contributes.views).flat() as Array<{ id: string }>;
    assert.ok(views.some((v) => v.id === 'modelGateway.videoJobs'));
    // Focusing the view only succeeds when the view is really registered with the workbench.
    await vscode.commands.executeCommand('modelGateway.videoJobs.focus');
  });
});
