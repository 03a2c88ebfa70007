import * as assert from 'node:assert/strict';
import type { VideoJobRecord } from '../../../src/videos/core/jobRecord';
import { jobDescription, statusText } from '../../../src/videos/core/jobPresentation';

function job(status: string, progress?: number): VideoJobRecord {
  return { key: 'k', id: 'v-1', origin: 'https://gw.example', model: 'm', prompt: 'p', parameters: {}, status, resultUrls: [], createdAt: 0, updatedAt: 0, ...(progress !== undefined && { progress }) };
}

describe('Video Jobs tree: progress', () => {
  it('shows a running job’s progress where its dialect reports it', () => {
    assert.equal(statusText(job('in_progress', 40)), 'in progress · 40%');
    assert.equal(jobDescription(job('in_progress', 39.6), 0).split(' · ').slice(0, 2).join(' · '), 'in progress · 40%');
  });

  it('shows no progress for a job without it, nor for a finished one', () => {
    assert.equal(statusText(job('in_progress')), 'in progress');
    assert.equal(statusText(job('completed', 100)), 'completed');
  });
});
