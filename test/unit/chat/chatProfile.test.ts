import * as assert from 'node:assert/strict';
import { chatProfileName, keepingProfile, settingsUnder } from '../../../src/chat/core/chatProfile';
import { defaultSettings } from '../../../src/chatProtocol/session';
import { defaultProfile, findProfile, type Profile } from '../../../src/settings/profile';

const work: Profile = { id: 'p-work', name: 'Work', baseUrl: 'https://a.example/v1', headers: {}, models: { chat: 'model-k3' } };
const connectionOf = (all: Profile[]) => ({
  profiles: all.filter((p) => !p.retired),
  profile: (id: string | undefined) => findProfile(all.filter((p) => !p.retired), id) ?? all.find((p) => p.id === id),
});

describe("a chat's profile", () => {
  it('is named in the header when there is something to tell apart', () => {
    assert.equal(chatProfileName(connectionOf([defaultProfile()]), {}), '', 'Default alone: nothing shown');
    assert.equal(chatProfileName(connectionOf([defaultProfile(), work]), {}), 'Default');
    assert.equal(chatProfileName(connectionOf([defaultProfile(), work]), { profile: 'p-work' }), 'Work');
    assert.equal(chatProfileName(connectionOf([defaultProfile(), { ...work, retired: true }]), { profile: 'p-work' }), 'Work (deleted)');
    assert.equal(chatProfileName(connectionOf([defaultProfile()]), { profile: 'p-gone' }), 'Deleted profile');
  });

  it('cannot be changed by the page, whatever it sends', () => {
    const page = { ...defaultSettings(), jsonMode: true, profile: 'p-other' };
    assert.deepEqual(keepingProfile(page, { profile: 'p-work' }), { ...defaultSettings(), jsonMode: true, profile: 'p-work' });
    assert.equal('profile' in keepingProfile(page, {}), false, 'a Default chat stays Default');
  });

  it("moves to another profile with that profile's default chat model; Default is written as no field", () => {
    const moved = settingsUnder({ ...defaultSettings(), model: 'model-5.2' }, work);
    assert.deepEqual([moved.profile, moved.model], ['p-work', 'model-k3']);
    const back = settingsUnder(moved, defaultProfile());
    assert.equal('profile' in back, false);
    assert.equal(back.model, 'model-k3', 'Default names no chat model: the chat keeps its own');
  });
});
