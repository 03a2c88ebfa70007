import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const MAIN = join(__dirname, '..', '..', 'simulator', 'main.js');

function start(args: string[]): { child: ChildProcess; lines: Promise<string[]> } {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = new Promise<string[]>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (/^API key: .+$/m.test(out)) resolve(out.split('\n'));
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before printing its key: ${out}`)));
  });
  return { child, lines };
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('simulator: command line', () => {
  it('prints the base URL and key, serves them, and exits cleanly on SIGTERM', async () => {
    const { child, lines } = start(['--port', '0', '--key', 'sk-cli-test-key', '--quiet']);
    try {
      const printed = await lines;
      const baseUrl = /^Base URL: (http:\/\/127\.0\.0\.1:\d+\/v1)$/m.exec(printed.join('\n'))?.[1];
      assert.ok(baseUrl, printed.join('\n'));
      assert.ok(printed.includes('API key: sk-cli-test-key'));
      const response = await fetch(`${baseUrl}/models`, { headers: { authorization: 'Bearer sk-cli-test-key' } });
      assert.equal(response.status, 200);
      await response.text();
    } finally {
      const done = exited(child);
      child.kill('SIGTERM');
      assert.equal(await done, 0);
    }
  });

  it('refuses unknown arguments', async () => {
    const child = spawn(process.execPath, [MAIN, '--bogus'], { stdio: 'ignore' });
    assert.equal(await exited(child), 1);
  });
});
