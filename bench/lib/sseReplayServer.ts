// Child process for bench/client.bench.ts: serves one pre-recorded SSE body, byte for byte, to every POST, with
// keep-alive. Running in its own process keeps the server's CPU time out of the measured client's event loop.
//   node out/bench/lib/sseReplayServer.js <body-file>   → prints `listening <port>` on stdout

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = readFileSync(process.argv[2]);
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.method !== 'POST') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"object":"list","data":[]}');
      return;
    }
    // Chunked, in 64 KB writes with backpressure, like the simulator at full speed.
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    let at = 0;
    const pump = (): void => {
      while (at < body.length) {
        const piece = body.subarray(at, at + 64 * 1024);
        at += piece.length;
        if (!res.write(piece)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    pump();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('disconnect', () => process.exit(0));
