// What a SIGKILL of the extension host leaves behind, with real processes: a child (killTarget.ts) submits a video job
// or downloads a result while the server stalls, and is killed at that moment. A submission the gateway received
// comes back as "submission uncertain" and is never sent again; a download leaves no partial file under the video's
// name.
import * as assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayClient } from '../../../src/gateway/client';
import { FakeClock } from '../../util/fakeClock';
import { downloadResult } from '../../../src/videos/core/download';
import { JobStore } from '../../../src/videos/core/jobStore';
import { startSimulator, type Simulator } from '../../simulator';
import { killHard } from '../../util/processes';

const TARGET = join(__dirname, 'killTarget.js');

function start(args: string[]): ChildProcess {
  return fork(TARGET, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** Resolves with the first message `accept` takes; rejects if the child exits first. */
function message<T>(child: ChildProcess, accept: (message: unknown) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the child exited (${code}) before it said so`));
    child.on('exit', onExit);
    child.on('message', (value) => {
      const taken = accept(value);
      if (taken === undefined) return;
      child.off('exit', onExit);
      resolve(taken);
    });
  });
}


describe('SIGKILL mid-job (real processes)', function () {
  this.timeout(20_000);
  let folder: string;
  const children: ChildProcess[] = [];

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'mg-kill-'));
  });

  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) await killHard(child);
    rmSync(folder, { recursive: true, force: true });
  });

  describe('during a video submit', () => {
    let sim: Simulator;
    let client: GatewayClient;

    before(async () => {
      sim = await startSimulator();
      client = new GatewayClient({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, maxRetries: 0 });
    });

    after(async () => {
      await client.close();
      await sim.close();
    });

    it('leaves the job "submission uncertain", and it is never sent again', async () => {
      const submits = () => sim.log.filter((e) => e.method === 'POST' && e.path === '/v1/videos/generations');
      sim.clearLog();
      const child = start(['submit', folder, sim.baseUrl, sim.apiKey, '[fault:stall] a lighthouse at dusk']);
      children.push(child);
      // The gateway has the request (and answers half of it, then stalls): the job may exist, and may cost money.
      await sim.waitForLog((e) => e.path === '/v1/videos/generations' && e.fault === 'stall', 10_000);
      await killHard(child);

      const clock = new FakeClock(Date.now());
      const store = new JobStore({ folder, clock, apiFor: () => client, sharing: { watch: false, rescanMs: 0 } });
      try {
        await store.ready;
        const [job] = store.jobs();
        assert.equal(job?.localState, 'uncertain', JSON.stringify(store.jobs()));
        assert.equal(job.prompt, '[fault:stall] a lighthouse at dusk');
        await clock.advanceAsync(10 * 60_000);
        await store.flush();
        assert.equal(submits().length, 1, 'sent once, by the killed process');
        assert.equal(store.get(job.key)?.localState, 'uncertain');
      } finally {
        store.dispose();
      }
    });
  });

  describe('during a download', () => {
    let server: Server;
    let url: string;
    const body = Buffer.alloc(64 * 1024, 7);

    before(async () => {
      server = createServer((request, response) => {
        response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': body.length });
        if (request.url === '/whole.mp4') response.end(body);
        else response.write(body.subarray(0, body.length / 2)); // then silence
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    after(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('leaves no partial file under the video\'s name', async () => {
      const child = start(['download', `${url}/stalls.mp4`, folder, 'vid_1']);
      children.push(child);
      await message(child, (m) => ((m as { received?: number }).received ?? 0) >= body.length / 2 || undefined);
      await killHard(child);

      const left = readdirSync(folder);
      assert.ok(!left.includes('vid_1.mp4'), `nothing under the name: ${left.join(', ')}`);
      assert.ok(left.every((name) => name.endsWith('.part')), left.join(', '));

      const again = await downloadResult(`${url}/whole.mp4`, folder, 'vid_1');
      assert.equal(again.file, join(folder, 'vid_1.mp4'), 'the name is free for the next download');
      assert.deepEqual(readFileSync(again.file), body);
    });
  });
});
