// A window that dies holding a chat's lock: takes the lock named on its command line, says so over IPC, and holds
// it until storeProcesses.test.ts kills it (SIGKILL). Loads only the lock, so that it starts fast.
import { withFileLock } from '../../../src/util/fileLock';
import { NodeFileSystem, processIsAlive } from '../../../src/util/storeFileSystem';
import { realClock } from '../../../src/util/clock';

const [folder, file] = process.argv.slice(2);
withFileLock(new NodeFileSystem(folder), file, { clock: realClock, pid: process.pid, isAlive: processIsAlive }, async () => {
  process.send?.({ type: 'holding' });
  await new Promise(() => undefined); // until SIGKILL
}).catch((error: unknown) => process.send?.({ type: 'failed', error: String(error) }));
