// A command's request (Generate Image, a model list) that the rate limit holds over a minute, whose caller shows no
// wait of its own: the connection says so once, and the notice lets the user send it anyway. Background work and
// callers that show their own wait (the chat) are not announced.
import * as assert from 'node:assert/strict';
import { GatewayConnection, type ClientConfig, type LongPaceWait } from '../../../../src/gateway/connection';
import type { RequestOptions } from '../../../../src/gateway/types';
import { offerSendAnyway, SEND_ANYWAY } from '../../../../src/ui/core/longWait';
import { FakeClock, settle } from '../../../util/fakeClock';

const SPENT = { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '2h' };

describe('gateway pacing: a long wait nobody shows', () => {
  function connect(clock: FakeClock): GatewayConnection {
    const keys = { get: async () => 'sk-secret', has: async () => true, onDidChange: () => ({ dispose: () => undefined }) };
    const settings = { baseUrl: 'https://gw.example/v1', origin: 'https://gw.example', headers: {}, timeoutMs: 1000, idleTimeoutMs: 1000 };
    const answering = (config: ClientConfig) => ({
      listModels: async (options?: RequestOptions) => {
        const ticket = await config.pacing!.admit({ priority: options?.pace, signal: options?.signal, onWait: options?.onPaceWait });
        ticket.answered(200, SPENT);
        ticket.done();
        return [];
      },
    });
    return new GatewayConnection(settings, keys, answering as never, clock);
  }

  // The first request spends the quota; the second is the command the rate limit holds for two hours.
  async function holdCommand(clock: FakeClock) {
    const connection = connect(clock);
    const waits: LongPaceWait[] = [];
    connection.onLongPaceWait((wait) => waits.push(wait));
    const api = (await connection.api())!;
    await api.listModels();
    const command = { connection, waits, api, done: false, held: Promise.resolve() };
    command.held = api.listModels().then(() => void (command.done = true));
    await settle();
    return command;
  }

  it('fires once for a command waiting over a minute, and its sendAnyway lets the request go', async () => {
    const clock = new FakeClock(1_000_000);
    const command = await holdCommand(clock);
    const { connection, waits, api } = command;
    assert.equal(command.done, false);
    assert.equal(waits.length, 1);
    assert.deepEqual([waits[0]!.origin, waits[0]!.method, waits[0]!.waitMs], ['https://gw.example', 'listModels', 7_200_000]);
    // Background work waits unannounced, and so does a caller that shows its own wait.
    const polled = api.listModels({ pace: 'background' });
    const shown = api.listModels({ onPaceWait: () => undefined });
    await settle();
    assert.equal(waits.length, 1);
    // The notice's button sends it.
    const asked: string[] = [];
    await offerSendAnyway({ notify: async (_kind, message, ...actions) => (asked.push(message, ...actions), SEND_ANYWAY) }, waits[0]!);
    assert.match(asked[0]!, /gw\.example holds this request for 2 h 0 min/);
    assert.equal(asked[1], SEND_ANYWAY);
    await command.held;
    assert.equal(command.done, true);
    connection.dispose();
    await Promise.allSettled([polled, shown]);
  });

  it('leaves the request waiting when the notice is dismissed', async () => {
    const clock = new FakeClock(1_000_000);
    const command = await holdCommand(clock);
    await offerSendAnyway({ notify: async () => undefined }, command.waits[0]!);
    await settle();
    assert.equal(command.done, false);
    await clock.advanceAsync(7_200_000);
    await command.held;
    assert.equal(command.done, true);
    command.connection.dispose();
  });
});
