// The video service's calls from the outside (the chat's /video, the tools): a job asked under a profile goes with
// that profile's default video model.
import * as assert from 'node:assert/strict';
import type { JobStore } from '../../../src/videos/core/jobStore';
import type { VideoJobRecord } from '../../../src/videos/core/jobRecord';
import { videoCalls } from '../../../src/videos/core/videoCalls';
import { readSettings, type VideoDefaults } from '../../../src/settings/settings';

describe('video calls (VideoApi.submit)', () => {
  it("submits under the chat's profile with that profile's default video model, and under the active one without", async () => {
    const defaults = readSettings({ userValue: () => undefined, value: () => undefined }).video;
    const modelOf: Record<string, string> = { 'p-work': 'model-video-work', active: 'model-video-default' };
    const submitted: Array<{ model: unknown; profile?: string }> = [];
    const store = {
      submit: async (origin: string, request: { model: string }, profile?: string) => {
        submitted.push({ model: request.model, profile });
        return { key: `k${submitted.length}`, model: request.model, origin, status: 'queued', localState: 'submitted', resultUrls: [] } as unknown as VideoJobRecord;
      },
    } as unknown as JobStore;
    const calls = videoCalls({
      store,
      access: async (profile) => ({ ok: true, origin: 'https://gw.example', profile: profile ?? 'default' }),
      settings: (profile?: string): VideoDefaults => ({ ...defaults, model: modelOf[profile ?? 'active'] }),
    });
    await calls.submit({ prompt: 'a kite over the sea' }, { profile: 'p-work' });
    await calls.submit({ prompt: 'a kite over the sea' });
    assert.deepEqual(submitted, [
      { model: 'model-video-work', profile: 'p-work' },
      { model: 'model-video-default', profile: 'default' },
    ]);
  });

  it('builds in no video model: without one set, the first video model the profile\'s gateway lists', async () => {
    const defaults = readSettings({ userValue: () => undefined, value: () => undefined }).video;
    assert.equal(defaults.model, '', 'no model id is a default');
    const submitted: unknown[] = [];
    const store = { submit: async (origin: string, request: { model: string }) => (submitted.push(request.model), { key: 'k', model: request.model, origin, status: 'queued', localState: 'submitted', resultUrls: [] }) } as unknown as JobStore;
    const asked: Array<string | undefined> = [];
    const calls = videoCalls({
      store,
      access: async () => ({ ok: true, origin: 'https://gw.example' }),
      settings: () => defaults,
      listedModel: async (profile) => (asked.push(profile), 'acme/clip-2'),
    });
    await calls.submit({ prompt: 'a kite' }, { profile: 'p-work' });
    assert.deepEqual([submitted, asked], [['acme/clip-2'], ['p-work']]);
  });
});
