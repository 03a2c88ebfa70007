// Run in a fresh Node process by globals.test.ts: imports the client, makes real requests, and reports whether the
// process-wide undici dispatcher or globalThis.fetch changed.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const KEYS = [Symbol.for('undici.globalDispatcher.1'), Symbol.for('undici.globalDispatcher.2')];

function snapshot(): { dispatchers: unknown[]; fetch: unknown; descriptors: Array<PropertyDescriptor | undefined> } {
  const g = globalThis as unknown as Record<symbol, unknown>;
  return {
    dispatchers: KEYS.map((k) => g[k]),
    fetch: globalThis.fetch,
    descriptors: KEYS.map((k) => Object.getOwnPropertyDescriptor(globalThis, k)),
  };
}

async function main(): Promise<void> {
  const before = snapshot();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { GatewayClient } = require('../../../../src/gateway') as typeof import('../../../../src/gateway');
  const afterImport = snapshot();
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":[{"id":"m","object":"model"}]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new GatewayClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: 'k', proxy: false });
  const models = await client.listModels();
  await client.listModels();
  const undiciLoaded = Object.keys(require.cache).some((p) => /[\\/]node_modules[\\/]undici[\\/]/.test(p));
  await client.close();
  const after = snapshot();
  // Node's own fetch still works (it sets up its own dispatcher on first use, as always).
  const port = (server.address() as AddressInfo).port;
  const fetched = (await (await fetch(`http://127.0.0.1:${port}/v1/models`)).json()) as { data: Array<{ id: string }> };
  server.close();
  const same = (a: ReturnType<typeof snapshot>, b: ReturnType<typeof snapshot>): boolean =>
    a.fetch === b.fetch && a.dispatchers.every((d, i) => d === b.dispatchers[i]) && a.descriptors.every((d, i) => (d === undefined) === (b.descriptors[i] === undefined));
  process.stdout.write(
    JSON.stringify({
      models: models.map((m) => m.id),
      fetchWorks: fetched.data[0].id === 'm',
      undiciLoaded,
      unchangedByImport: same(before, afterImport),
      unchangedByRequests: same(before, after),
      dispatcherBefore: before.dispatchers.map((d) => (d === undefined ? 'undefined' : 'set')),
    }),
  );
}

void main();
