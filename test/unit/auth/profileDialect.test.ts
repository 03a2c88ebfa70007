import * as assert from 'node:assert/strict';
import { checkProfileInput, readProfile, writeProfile } from '../../../src/settings/profileCheck';

describe('profiles: the video dialect', () => {
  it('takes a dialect on creation and refuses one it does not know, naming the choices', () => {
    const ok = checkProfileInput({ name: 'Router', baseUrl: 'https://openrouter.ai/api/v1', dialect: 'openrouter' }, []);
    assert.deepEqual(ok.ok && ok.fields.dialect, 'openrouter');
    const none = checkProfileInput({ name: 'Plain', baseUrl: 'https://gw.example/v1' }, []);
    assert.equal(none.ok && 'dialect' in none.fields, false, 'absent means auto');
    const bad = checkProfileInput({ name: 'Bad', baseUrl: 'https://gw.example/v1', dialect: 'klingon' }, []);
    assert.equal(bad.ok, false);
    assert.match((bad as { problem: string }).problem, /auto, spec, openai, openrouter, xai, dashscope/);
  });

  it('keeps the dialect in profiles.json, and a dialect a newer version wrote round-trips unchanged', () => {
    const stored = { id: 'p1', name: 'X', baseUrl: 'https://api.x.ai/v1', headers: {}, models: {}, dialect: 'xai', future: { a: 1 } };
    const profile = readProfile(stored)!;
    assert.equal(profile.dialect, 'xai');
    assert.deepEqual(writeProfile(profile), stored);
    const newer = { id: 'p2', name: 'N', baseUrl: 'https://gw.example/v1', headers: {}, models: {}, dialect: 'gemini-veo' };
    const read = readProfile(newer)!;
    assert.equal(read.dialect, undefined);
    assert.deepEqual(writeProfile(read), newer);
  });
});
