// Which store (window) a lease, a claim or a 'submitting' record belongs to: `<pid>:<random>`. A 'submitting'
// record whose store is gone (its process exited, or it was disposed in this process) will never get its answer.
import { randomBytes } from 'node:crypto';
import { processIsAlive } from '../../util/storeFileSystem';

const liveInThisProcess = new Set<string>();

export function newOwnerId(): string {
  const id = `${process.pid}:${randomBytes(6).toString('hex')}`;
  liveInThisProcess.add(id);
  return id;
}

export function endOwner(id: string): void {
  liveInThisProcess.delete(id);
}

export function ownerAlive(id: string | undefined): boolean {
  const pid = Number(id?.split(':')[0]);
  if (!id || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return liveInThisProcess.has(id);
  return processIsAlive(pid);
}
