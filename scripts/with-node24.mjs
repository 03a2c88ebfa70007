// Runs a script with the cached Node 24 (our dev tools need Node >= 22; the machine may have Node 20).
import { spawnSync } from 'node:child_process';
import { ensureNode24 } from './host-cache.mjs';

const node = Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : ensureNode24();
const result = spawnSync(node, process.argv.slice(2), { stdio: 'inherit' });
process.exit(result.status ?? 1);
