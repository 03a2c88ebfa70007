// The extension-host stage of `npm test` in code-server + Chromium (see vscode-host.mjs).
import { join } from 'node:path';
import { ROOT } from './host-cache.mjs';
import { runHostTests } from './vscode-host.mjs';

const code = await runHostTests({ extensionTestsPath: join(ROOT, 'out', 'test', 'host', 'index.js') });
process.exit(code);
