import * as assert from 'node:assert/strict';
import { chatProfileName, keepingProfile, modelUnder, settingsUnder } from '../../../src/chat/core/chatProfile';
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

  it("moves to another profile keeping its model only where that profile's gateway lists it; Default is written as no field", () => {
    const chat = { ...defaultSettings(), model: 'model-5.2' };
    const moved = settingsUnder(chat, work, { configured: 'model-k3', listed: ['model-k3'] });
    assert.deepEqual([moved.profile, moved.model], ['p-work', 'model-k3'], "not listed: the profile's default");
    const back = settingsUnder(moved, defaultProfile(), { configured: undefined, listed: ['model-k3', 'model-5.2'] });
    assert.equal('profile' in back, false);
    assert.equal(back.model, 'model-k3', 'listed there: the chat keeps its own');
    assert.equal(settingsUnder(chat, work, { configured: 'model-k3', listed: ['model-5.2'] }).model, 'model-5.2', "listed: kept, even over the profile's default");
  });

  it("takes the first chat model the new profile lists when it names no default; offline, that profile's default, else its own", () => {
    assert.equal(modelUnder('model-k3', { configured: undefined, listed: ['model-5.2', 'model-6'] }), 'model-5.2', 'the defect: it kept model-k3, which that gateway does not have');
    assert.equal(modelUnder('', { configured: undefined, listed: ['model-5.2'] }), 'model-5.2', 'a chat without a model yet');
    assert.equal(modelUnder('model-k3', { configured: 'model-x', listed: undefined }), 'model-x', "offline: the default the user set for that profile");
    assert.equal(modelUnder('model-k3', { configured: undefined, listed: undefined }), 'model-k3', "offline without a default: its own, and the send's error advises");
    assert.equal(modelUnder('model-k3', { configured: undefined, listed: [] }), 'model-k3', 'nothing listed and no default: nothing better to take');
  });
});
