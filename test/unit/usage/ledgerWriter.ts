// One window appending to the usage ledger, in a process of its own (ledgerProcesses.test.ts runs two at once).
// Arguments: the storage folder, a tag for its records (their profile), how many records to append.
import { Ledger } from '../../../src/usage/core/ledger';
import { sampleRecord } from './sample';

const [folder, tag, count] = process.argv.slice(2);
const ledger = new Ledger(folder!);
void Promise.all(Array.from({ length: Number(count) }, (_, i) => ledger.append(sampleRecord({ profile: tag!, inputTokens: i, time: Date.now() })))).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
