// A process for the SIGKILL tests (sigkill.test.ts forks it, compiled, and kills it at the right moment):
//   submit <folder> <baseUrl> <apiKey> <prompt>  submits a video job through a JobStore on <folder>;
//   download <url> <directory> <stem>            downloads a result, telling the parent as bytes arrive.
// It tells the parent what it is doing through the IPC channel; it never ends by itself while the server stalls.
import { GatewayClient } from '../../../src/gateway/client';
import { realClock } from '../../../src/util/clock';
import { downloadResult } from '../../../src/videos/core/download';
import { JobStore } from '../../../src/videos/core/jobStore';

const [mode, ...args] = process.argv.slice(2);
const tell = (message: unknown) => process.send?.(message);

if (mode === 'submit') {
  const [folder, baseUrl, apiKey, prompt] = args;
  const client = new GatewayClient({ baseUrl, apiKey });
  const store = new JobStore({ folder, clock: realClock, apiFor: () => client, sharing: { watch: false, rescanMs: 0 } });
  store.submit(new URL(baseUrl).origin, { model: 'model-1.0-video-edit', input: { prompt } }).then(
    (record) => tell({ submitted: record }),
    (error: unknown) => tell({ failed: String(error) }),
  );
} else if (mode === 'download') {
  const [url, directory, stem] = args;
  downloadResult(url, directory, stem, { onProgress: (received) => tell({ received }) }).then(
    (result) => tell({ downloaded: result.file }),
    (error: unknown) => tell({ failed: String(error) }),
  );
} else {
  throw new Error(`unknown mode ${mode}`);
}
