// Entry point for the suite that runs in a window whose folder is NOT trusted (Restricted Mode): the folder holds a
// hostile repository's settings, instruction files and prompt files (scripts/untrustedFolder.mjs writes it).
import * as path from 'node:path';
import { runSuite } from '../index';

export function run(): Promise<void> {
  return runSuite(path.join(__dirname, 'suite'));
}
