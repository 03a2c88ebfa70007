// Job files for the startup bench: the folder of a user who has made some videos. Written into the profile before
// VS Code starts (activation reads that folder) and into a scratch folder for the job store measure.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordText } from '../../src/videos/core/jobRecord';
import { recordFromRequest } from '../../src/videos/core/jobRequest';

export const BENCH_JOBS = 200;

/** `count` finished jobs in `<folder>/jobs` (finished: nothing to poll, so the bench sends no request). */
export function writeJobs(folder: string, count = BENCH_JOBS, origin = 'https://gateway.example'): void {
  mkdirSync(join(folder, 'jobs'), { recursive: true });
  for (let i = 0; i < count; i++) {
    const request = { model: 'model-video', input: { prompt: `a lighthouse, take ${i}` } };
    const record = { ...recordFromRequest(`job-${i}`, origin, request, Date.now()), id: `vid_${i}`, status: 'completed', resultUrls: [`https://cdn.example/${i}.mp4`] };
    writeFileSync(join(folder, 'jobs', `job-${i}.json`), recordText(record));
  }
}

/** The extension's video job folder in a VS Code profile (`<globalStorage>/videos`). */
export function profileJobFolder(userDataDir: string): string {
  return join(userDataDir, 'User', 'globalStorage', 'model-gateway.model-gateway', 'videos');
}
