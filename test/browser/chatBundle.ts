// The chat view (ChatApp) bundled for Chromium, as the webview runs it.
import * as esbuild from 'esbuild';
import { REPO_ROOT } from './harness';

export function chatBundle(): Promise<string> {
  return esbuild
    .build({
      stdin: { contents: "export { ChatApp } from './src/webview/chat/app';", resolveDir: REPO_ROOT, loader: 'ts' },
      bundle: true,
      format: 'iife',
      globalName: 'Chat',
      platform: 'browser',
      target: 'chrome120',
      write: false,
      logLevel: 'error',
    })
    .then((result) => result.outputFiles[0].text);
}
