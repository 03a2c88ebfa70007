import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VideoJobRecord } from '../../../src/videos/core/jobRecord';
import { KeptFiles } from '../../../src/videos/core/keptFiles';
import { resultFetchOptionsFor } from '../../../src/videos/vscode/sharedCommands';

const GW = 'https://gw.example';
const credentials = { origin: GW, headers: { authorization: 'Bearer sk-profile' } };
const connection = {
  resultFetchOptions: async () => ({ proxy: false as const, credentials }),
  connectionFor: () => ({ origin: GW }),
} as unknown as Parameters<typeof resultFetchOptionsFor>[0]['connection'];

function job(members: Partial<VideoJobRecord>): VideoJobRecord {
  return { key: 'k', id: 'v', origin: GW, model: 'm', prompt: 'p', parameters: {}, status: 'completed', resultUrls: [], createdAt: 0, updatedAt: 0, ...members };
}

describe('video results: which link gets the key, and when it expires', () => {
  const content = `${GW}/api/v1/videos/v/content?index=0`;
  const signed = `${GW}/storage/v.mp4?sig=abc`;

  it('sends the key to a dialect’s content endpoint, and not to its signed link, even on the gateway’s own origin', async () => {
    const record = job({ dialect: 'openrouter', resultUrls: [content, signed], keyedUrls: [content] });
    assert.deepEqual((await resultFetchOptionsFor({ connection }, record, content)).credentials, credentials);
    assert.equal((await resultFetchOptionsFor({ connection }, record, signed)).credentials, undefined);
  });

  it('keeps the key scoped to the gateway’s origin for a spec job, as before', async () => {
    assert.deepEqual((await resultFetchOptionsFor({ connection }, job({ resultUrls: [signed] }), signed)).credentials, credentials);
  });

  it('waits to keep a result until the expiry the gateway reported, and not after it', () => {
    const folder = mkdtempSync(join(tmpdir(), 'mg-kept-'));
    try {
      const kept = new KeptFiles(folder);
      const day = 24 * 3_600_000;
      const record = job({ resultUrls: [signed], completedAt: 0, expiresAt: 2 * day });
      assert.equal(kept.waits(record, 1.5 * day), signed, 'an undated link would be given up after a day');
      assert.equal(kept.waits(record, 2 * day + 1), undefined);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
