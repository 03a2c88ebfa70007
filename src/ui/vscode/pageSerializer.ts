// UI adapter: brings back a webview page's panels after a reload (the serializer part of the webview host,
// webviewHost.ts). Registered at activation; `provider` is called only when VS Code restores a panel, so what it loads
// (the feature's panels and their host side) stays out of activation.
import * as vscode from 'vscode';

export function registerPageSerializer(page: { viewType: string }, provider: () => vscode.WebviewPanelSerializer): vscode.Disposable {
  return vscode.window.registerWebviewPanelSerializer(page.viewType, { deserializeWebviewPanel: (panel, state) => provider().deserializeWebviewPanel(panel, state) });
}
