// One window writing pace entries, in a process of its own (paceFileProcesses.test.ts runs several at once).
// Arguments: the pace file, a tag (a hex digit that starts this writer's entry ids), how many entries to write.
import { PaceFile } from '../../../../src/gateway/paceFile';
import { realClock } from '../../../../src/util/clock';

const [path, tag, count] = process.argv.slice(2);
const file = new PaceFile(path!, realClock);
const id = (i: number) => `${tag}${i.toString(16).padStart(15, '0')}`;
const entry = () => ({ origin: 'https://gw.example', observedAt: realClock.now(), requests: { remaining: 0, reset: { at: realClock.now() + 20_000, ms: 20_000 } } });
// Each write is queued at once: they run one after another in this window, against the other windows' writes.
void Promise.all(Array.from({ length: Number(count) }, (_, i) => file.write(id(i), entry()))).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
