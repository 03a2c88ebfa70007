// Test-only extension, packaged and installed beside Model Gateway by the end-to-end suite (test/e2e). Its one
// command does what any other installed extension can: activate Model Gateway and walk what
// `vscode.extensions.getExtension(...).exports` hands out. It writes what it found to the file named in
// config.json (written by the suite before packaging, with the key the suite typed).
const vscode = require('vscode');
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const TARGET = 'model-gateway.model-gateway';

function activate(context) {
  const config = JSON.parse(readFileSync(join(__dirname, 'config.json'), 'utf8'));
  context.subscriptions.push(
    vscode.commands.registerCommand('modelGatewayE2EProbe.describeExports', async () => {
      const extension = vscode.extensions.getExtension(TARGET);
      let activationError;
      const exports = extension ? await extension.activate().catch((error) => ((activationError = String(error)), undefined)) : undefined;
      const report = {
        found: Boolean(extension),
        copies: vscode.extensions.all.filter((e) => e.id.toLowerCase() === TARGET).length,
        isActive: extension?.isActive ?? false,
        activationError,
        extensionPath: extension?.extensionPath,
        exportsType: exports === null ? 'null' : typeof exports,
        sameAsProperty: extension ? extension.exports === exports : false,
        findings: walk(exports, 'exports', config.key),
        // The same walk over things that must be found, so a walk that sees nothing cannot pass unnoticed.
        control: walk({ secrets: context.secrets, state: context.globalState, copy: `key=${config.key}`, run() {} }, 'control', config.key),
      };
      writeFileSync(config.out, JSON.stringify(report, null, 2));
      void vscode.window.showInformationMessage(`E2E probe: Model Gateway exports ${report.exportsType} (${report.findings.length} findings).`);
    }),
  );
}

/** Everything reachable from `root` that could lead to the key or a store: the key itself, a function, a class instance, a secret storage or memento. */
function walk(root, name, key) {
  const findings = [];
  const seen = new Set();
  const visit = (value, path) => {
    if (typeof value === 'string') {
      if (key && value.includes(key)) findings.push(`${path}: holds the API key`);
      return;
    }
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return;
    if (seen.has(value)) return;
    seen.add(value);
    if (typeof value === 'function') findings.push(`${path}: a function (it reaches whatever its closure holds)`);
    const proto = Object.getPrototypeOf(value);
    if (typeof value === 'object' && !Array.isArray(value) && proto !== Object.prototype && proto !== null) findings.push(`${path}: an instance of ${proto.constructor?.name || 'a class'}`);
    const has = (...names) => names.every((n) => typeof value[n] === 'function');
    if (has('get', 'store', 'delete')) findings.push(`${path}: a secret storage`);
    if (has('get', 'update', 'keys')) findings.push(`${path}: a memento (globalState or workspaceState)`);
    for (const prop of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, prop);
      const at = `${path}.${String(prop)}`;
      if (descriptor && 'value' in descriptor) visit(descriptor.value, at);
      else findings.push(`${at}: a getter`);
    }
  };
  visit(root, name);
  return findings;
}

module.exports = { activate };
