// `npm run test:electron`: the same extension-host suite under @vscode/test-electron, on a machine that can
// download or already has desktop VS Code.
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '../../..');
  try {
    await runTests({
      extensionDevelopmentPath: root,
      extensionTestsPath: path.join(__dirname, 'index.js'),
      launchArgs: ['--disable-extensions', '--disable-workspace-trust'],
      version: process.env.VSCODE_VERSION ?? 'stable',
    });
  } catch (error) {
    console.error('Extension-host tests failed:', error);
    process.exit(1);
  }
}

void main();
