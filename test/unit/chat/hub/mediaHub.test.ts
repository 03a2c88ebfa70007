// ChatMediaHub over a real ChatController (in-memory store, fake clock) and fake ports: what each slash command
// adds to the session, how the video card follows the Video Jobs store's job, Read aloud, Regenerate and failures.
import * as assert from 'node:assert/strict';
import { ChatMediaHub, type ChatMediaPorts } from '../../../../src/chat/core/hub/mediaHub';
import type { KeptMedia, MediaCall, TranscribeAsk } from '../../../../src/media/core/api';
import type { VideoJob } from '../../../../src/videos/core/api';
import { wireMediaTurn } from '../../../../src/chat/core/hub/wireMedia';
import type { MediaTurn } from '../../../../src/chatProtocol/session';
import { settle } from '../../../util/fakeClock';
import { Emitter } from '../../../../src/util/events';
import { createHarness, type Harness } from '../harness';
import type { ResultLinkCheck } from '../../../../src/gateway/resultFetch';
import { result } from '../fakes';
import { adviceFor, AdvisedError } from '../../../../src/ui/core/errorAdvice';
import type { AudioType } from '../../../../src/gateway/mediaTypes';

class FakePorts implements ChatMediaPorts {
  readonly asked: Array<{ what: string; text: string; model?: string }> = [];
  readonly jobs = new Map<string, VideoJob>();
  /** Each media call's surface and profile, and each submission's profile. */
  readonly calls: Array<{ surface?: string; profile?: string }> = [];
  readonly changed = new Emitter<readonly string[]>();
  /** The audio synthesizeSpeech hands on as it arrives, before it resolves. */
  speechPieces: Array<[Uint8Array, AudioType]> = [];
  /** What the next call throws: its message, or the error itself. */
  fail: string | Error | undefined;
  private n = 0;
  /** Link checks asked for, answered by `answerLink`. */
  readonly linkChecks: Array<{ url: string; answer: (check: ResultLinkCheck) => void }> = [];
  readonly checkLink = (url: string): Promise<ResultLinkCheck> => new Promise((answer) => this.linkChecks.push({ url, answer }));

  readonly media = {
    filesFolder: '/store/files',
    generateImage: async (ask: { prompt: string; model?: string }, call: MediaCall) => (this.calls.push({ surface: call.surface, profile: call.profile }), this.keep('image', ask.prompt, ask.model)),
    synthesizeSpeech: async (ask: { text: string; model?: string }, call: MediaCall & { onAudio?: (chunk: Uint8Array, type: AudioType) => void }) => {
      this.calls.push({ surface: call.surface, profile: call.profile });
      for (const [chunk, type] of this.speechPieces) call.onAudio?.(chunk, type);
      return this.keep('speech', ask.text, ask.model);
    },
    editImage: async (ask: { prompt: string; model?: string }, call: MediaCall) => (this.calls.push({ surface: call.surface, profile: call.profile }), this.keep('image', ask.prompt, ask.model)),
    transcribe: async (ask: TranscribeAsk, call: MediaCall) => (this.calls.push({ surface: call.surface, profile: call.profile }), { text: `Transcript of ${ask.path}`, model: ask.model ?? 'model-transcribe-1.0', timed: false }),
    keptFile: () => undefined,
    save: async () => undefined,
  };

  readonly videos = {
    keptFolder: '/store/video-results',
    submit: async (ask: { prompt: string; model?: string }, call?: { profile?: string }) => {
      this.calls.push({ profile: call?.profile });
      this.asked.push({ what: 'video', text: ask.prompt, model: ask.model });
      if (this.fail) throw typeof this.fail === 'string' ? new Error(this.fail) : this.fail;
      const job: VideoJob = { key: `job${++this.n}`, model: ask.model ?? 'model-video', state: 'pending', detail: 'queued' };
      this.jobs.set(job.key, job);
      return job;
    },
    job: (key: string) => this.jobs.get(key),
    onDidChange: (listener: (keys: readonly string[]) => void) => this.changed.event(listener),
    reveal: async () => undefined,
    runningJobs: () => 0,
    jobsReady: async () => undefined,
    onDidChangeJobs: () => ({ dispose() {} }),
    dialect: async () => ({ dialect: 'spec' as const, setting: 'auto' as const, reason: 'a test double', evidence: [], settled: true }),
  };

  private keep(what: string, text: string, model: string | undefined): KeptMedia {
    this.asked.push({ what, text, model });
    if (this.fail) throw typeof this.fail === 'string' ? new Error(this.fail) : this.fail;
    const n = ++this.n;
    return { entryId: `mentry00${n}`, fileName: `mentry00${n}-0.${what === 'image' ? 'png' : 'wav'}`, contentType: what === 'image' ? 'image/png' : 'audio/wav', model: model ?? `model-${what}-1.0` };
  }
}

function setup(): { h: Harness; ports: FakePorts; hub: ChatMediaHub } {
  const h = createHarness();
  const ports = new FakePorts();
  let n = 0;
  const hub = new ChatMediaHub({ controller: h.controller, ports, clock: h.clock, newId: () => `m${++n}`, log: { info: () => undefined, warn: () => undefined, error: () => undefined } as never, checkLink: ports.checkLink });
  return { h, ports, hub };
}

const media = (h: Harness) => h.session.turns.filter((t): t is MediaTurn => t.role === 'media');

describe('ChatMediaHub', () => {
  it('/image adds a pending turn, then the kept image, and saves both states; the chat model is not asked', async () => {
    const { h, ports, hub } = setup();
    assert.equal(hub.handleSend('/image a red fox'), true);
    await settle();
    const [turn] = media(h);
    assert.equal(turn.state, 'complete');
    assert.deepEqual([turn.kind, turn.content, turn.prompt, turn.model, turn.entryId, turn.contentType], ['image', '/image a red fox', 'a red fox', 'model-image-1.0', 'mentry001', 'image/png']);
    assert.deepEqual(ports.asked, [{ what: 'image', text: 'a red fox', model: undefined }]);
    assert.equal(h.gateway.calls.length, 0);
    assert.deepEqual(h.events.filter((e) => e.type === 'turnAdded' || e.type === 'turnUpdated').map((e) => e.type), ['turnAdded', 'turnUpdated']);
    const saved = await h.store.load(h.session.id);
    assert.equal(saved?.turns[0].role === 'media' && saved.turns[0].state, 'complete', 'saved with the session');
    assert.equal(h.session.title, '/image a red fox');
    assert.equal(hub.handleSend('plain text'), false, 'other text is the chat\'s');
  });

  it('uses the chat\'s own model choice for each kind', async () => {
    const { h, ports, hub } = setup();
    await h.controller.updateSettings({ ...h.session.settings, mediaModels: { image: 'model-image-2', video: 'model-video-x', speech: '' } });
    hub.handleSend('/image x');
    hub.handleSend('/video y');
    await settle();
    assert.deepEqual(ports.asked.map((a) => a.model), ['model-image-2', 'model-video-x']);
  });

  it("asks under the chat's own profile, naming the chat's surface for the usage ledger", async () => {
    const { h, ports, hub } = setup();
    await h.controller.updateSettings({ ...h.session.settings, profile: 'p-work' });
    hub.handleSend('/image x');
    hub.handleSend('/speak y');
    hub.handleSend('/video z');
    await settle();
    assert.deepEqual(ports.calls, [{ surface: 'chat-image', profile: 'p-work' }, { surface: 'chat-speech', profile: 'p-work' }, { profile: 'p-work' }]);
  });

  it('/speak reads the last reply (without its Markdown), or says there is none; Read aloud reads the reply given', async () => {
    const { h, ports, hub } = setup();
    hub.handleSend('/speak');
    await settle();
    assert.equal(media(h)[0].state, 'failed');
    assert.match(media(h)[0].detail ?? '', /no reply to read aloud yet/);
    assert.equal(ports.asked.length, 0);

    h.controller.send('hello');
    await settle();
    h.gateway.calls[0].resolve(result('**Hi** there, see [the docs](https://x.example).\n\n```js\nx()\n```'));
    await h.controller.idle;
    hub.handleSend('/speak');
    await settle();
    assert.deepEqual(ports.asked.at(-1), { what: 'speech', text: 'Hi there, see the docs. (code)', model: undefined });
    const reply = h.session.turns.find((t) => t.role === 'assistant')!;
    hub.readAloud(reply.id);
    await settle();
    assert.equal(ports.asked.length, 2);
    assert.equal(media(h).at(-1)?.content, '/speak');
    hub.readAloud(media(h)[0].id);
    await settle();
    assert.equal(ports.asked.length, 2, 'only replies are read aloud');
  });

  it('/speak sends its audio to the page as it arrives, before the turn completes; WAV only once kept', async () => {
    const { h, ports, hub } = setup();
    const heard: string[] = [];
    hub.onDidHearAudio((m) => heard.push(m.type === 'mediaAudio' ? `${m.turnId}@${m.at}:${m.data}` : `${m.turnId} end`));
    h.controller.onEvent((e) => e.type === 'turnUpdated' && heard.push(`${e.turn.id} ${e.turn.state}`));
    ports.speechPieces = [[new Uint8Array([73, 68, 51]), 'audio/mpeg'], [new Uint8Array([4]), 'audio/mpeg']];
    hub.handleSend('/speak say this');
    await settle();
    assert.deepEqual(heard, ['m1@0:SUQz', 'm1@3:BA==', 'm1 end', 'm1 complete']);
    ports.speechPieces = [[new Uint8Array([1, 2, 3]), 'audio/wav']];
    hub.handleSend('/speak a wav');
    await settle();
    assert.deepEqual(heard.slice(4), ['m2 complete'], 'WAV plays once kept, as before');
  });

  it('/video shows the store\'s job and follows it, from the store\'s own change events, to the result', async () => {
    const { h, ports, hub } = setup();
    hub.handleSend('/video waves');
    await settle();
    let [turn] = media(h);
    assert.deepEqual([turn.state, turn.jobKey, turn.detail], ['pending', 'job1', 'queued']);
    ports.jobs.set('job1', { key: 'job1', model: 'model-video', state: 'pending', detail: 'in_progress' });
    ports.changed.fire(['job1']);
    await settle();
    assert.equal(media(h)[0].detail, 'in_progress');
    ports.jobs.set('job1', { key: 'job1', model: 'model-video', state: 'complete', detail: 'completed', url: 'http://127.0.0.1:9/v.mp4' });
    ports.changed.fire(['other']);
    await settle();
    assert.equal(media(h)[0].state, 'pending', 'another job\'s change is not this card\'s');
    ports.changed.fire(['job1']);
    await settle();
    [turn] = media(h);
    assert.deepEqual([turn.state, turn.url, turn.contentType], ['complete', 'http://127.0.0.1:9/v.mp4', 'video/mp4']);
    assert.equal(ports.asked.length, 1, 'one submission');
  });

  it('a finished video plays from where its link finally leads, only once the extension checked it; a failure to reach it is retried, not regenerated', async () => {
    const { h, ports, hub } = setup();
    const changed: string[][] = [];
    hub.onDidChangeSources((ids) => changed.push(ids));
    hub.handleSend('/video waves');
    await settle();
    ports.jobs.set('job1', { key: 'job1', model: 'model-video', state: 'complete', detail: 'completed', url: 'http://127.0.0.1:9/v.mp4?sig=1' });
    ports.changed.fire(['job1']);
    await settle();
    const [turn] = media(h);
    assert.deepEqual(hub.link(turn.url!), { state: 'checking' });
    assert.deepEqual(hub.link(turn.url!), { state: 'checking' });
    assert.deepEqual(ports.linkChecks.map((c) => c.url), ['http://127.0.0.1:9/v.mp4?sig=1'], 'one check per link');
    assert.deepEqual(hub.playableOrigins(), []);

    // Unreachable (a 503): Retry checks again; nothing is submitted.
    ports.linkChecks[0].answer({ state: 'unavailable', message: '127.0.0.1:9 answered HTTP 503.' });
    await settle();
    assert.deepEqual(changed, [[turn.id]]);
    assert.equal(hub.link(turn.url!).state, 'unavailable');
    await hub.action(turn.id, 'retry');
    assert.deepEqual(hub.link(turn.url!), { state: 'checking' });
    assert.equal(ports.linkChecks.length, 2);
    await hub.action(turn.id, 'retry');
    assert.equal(ports.linkChecks.length, 2, 'a check under way is not started twice');

    // It redirects to a CDN: the page is told the final link, and may load from that origin.
    ports.linkChecks[1].answer({ state: 'available', finalUrl: 'http://127.0.0.1:10/cdn/v.mp4?sig=1', contentType: 'video/mp4' });
    await settle();
    assert.deepEqual(hub.link(turn.url!), { state: 'available', finalUrl: 'http://127.0.0.1:10/cdn/v.mp4?sig=1', contentType: 'video/mp4' });
    assert.deepEqual(hub.playableOrigins(), ['http://127.0.0.1:10']);
    assert.equal(changed.length, 3);
    assert.equal(ports.asked.length, 1, 'still one submission: nothing was regenerated');
    hub.dispose();
  });

  it('a finished video plays its kept copy first, once kept, and its link is not even checked', async () => {
    const { h, ports, hub } = setup();
    const changed: string[][] = [];
    hub.onDidChangeSources((ids) => changed.push(ids));
    hub.handleSend('/video waves');
    await settle();
    const url = 'http://127.0.0.1:9/v.mp4?sig=1&expires=1';
    ports.jobs.set('job1', { key: 'job1', model: 'model-video', state: 'complete', detail: 'completed', url });
    ports.changed.fire(['job1']);
    await settle();
    assert.deepEqual(changed, [], 'the turn itself changed: it is sent as a new state, not as a new source');
    // The keeper stored the result: the job's change leaves the turn as it was, so only its source is sent again.
    ports.jobs.set('job1', { ...ports.jobs.get('job1')!, keptFile: '/store/video-results/job1.webm', keptContentType: 'video/webm' });
    ports.changed.fire(['job1']);
    await settle();
    const [turn] = media(h);
    assert.deepEqual(changed, [[turn.id]]);
    const sources = { keptFile: () => undefined, videoJob: (key: string) => ports.videos.job(key), webviewSrc: (p: string) => `https://file%2B.vscode-resource.vscode-cdn.net${p}`, link: (u: string) => hub.link(u) };
    const wire = wireMediaTurn(turn, sources);
    assert.deepEqual([wire.src, wire.contentType, wire.url], ['https://file%2B.vscode-resource.vscode-cdn.net/store/video-results/job1.webm', 'video/webm', url]);
    assert.equal(ports.linkChecks.length, 0, 'the (expired) link is not tried while a kept copy plays');
    // Evicted over the quota: back to the link.
    ports.jobs.set('job1', { key: 'job1', model: 'model-video', state: 'complete', detail: 'completed', url });
    ports.changed.fire(['job1']);
    await settle();
    assert.deepEqual(wireMediaTurn(turn, sources).linkState, 'checking');
    assert.deepEqual(ports.linkChecks.map((c) => c.url), [url]);
    hub.dispose();
  });

  it('a reopened chat catches up with jobs that finished while it was closed', async () => {
    const { h, ports, hub } = setup();
    hub.handleSend('/video waves');
    await settle();
    hub.dispose();
    ports.jobs.set('job1', { key: 'job1', model: 'model-video', state: 'failed', detail: 'The job failed: content policy.' });
    new ChatMediaHub({ controller: h.controller, ports, clock: h.clock, newId: () => 'z1', log: {} as never, checkLink: ports.checkLink });
    await settle();
    assert.deepEqual([media(h)[0].state, media(h)[0].detail], ['failed', 'The job failed: content policy.']);
  });

  it('an image a closed chat was waiting for comes back as interrupted, not as a spinner, and is not asked for again', async () => {
    const { h, ports, hub } = setup();
    let release!: () => void;
    let calls = 0;
    ports.media.generateImage = (ask) => new Promise((resolve) => (calls++, release = () => resolve({ entryId: 'mentry009', fileName: 'mentry009-0.png', contentType: 'image/png', model: ask.model ?? 'model-image-1.0' })));
    hub.handleSend('/image slow');
    await settle();
    hub.dispose();
    release();
    await settle();
    assert.equal(media(h)[0].state, 'pending', 'the closed chat wrote nothing more');
    new ChatMediaHub({ controller: h.controller, ports, clock: h.clock, newId: () => 'z1', log: {} as never, checkLink: ports.checkLink });
    await settle();
    assert.equal(media(h)[0].state, 'failed');
    assert.match(media(h)[0].detail ?? '', /^Interrupted: .*Regenerate asks again/);
    assert.equal(calls, 1, 'never asked again by itself');
  });

  it('a failure is kept on the turn with its message, and Regenerate makes it again in place', async () => {
    const { h, ports, hub } = setup();
    ports.fail = 'The gateway refused the API key (401).';
    hub.handleSend('/image a cat');
    await settle();
    assert.deepEqual([media(h)[0].state, media(h)[0].detail], ['failed', 'The gateway refused the API key (401).']);
    ports.fail = undefined;
    await hub.action(media(h)[0].id, 'regenerate');
    assert.equal(media(h).length, 1, 'in place');
    assert.deepEqual([media(h)[0].state, media(h)[0].detail, media(h)[0].prompt], ['complete', undefined, 'a cat']);
  });

  it("a failure the media or video feature worded keeps its advice's actions, sent to the page as titles; Regenerate drops them", async () => {
    const { h, ports, hub } = setup();
    const advice = adviceFor({ status: 401, message: 'Invalid key' }, { origin: 'gateway.example' });
    ports.fail = new AdvisedError(advice);
    hub.handleSend('/image a cat');
    hub.handleSend('/video a dog');
    await settle();
    for (const turn of media(h)) {
      assert.equal(turn.state, 'failed');
      assert.equal(turn.detail, advice.message);
      assert.deepEqual(turn.actions, [{ title: 'Set API Key', command: 'modelGateway.setApiKey' }]);
      const wire = wireMediaTurn(turn, { keptFile: () => undefined, webviewSrc: (p) => p, link: () => ({ state: 'checking' }) });
      assert.deepEqual(wire.actions, ['Set API Key'], 'titles only: the commands stay with the host');
    }
    ports.fail = undefined;
    await hub.action(media(h)[0].id, 'regenerate');
    assert.equal(media(h)[0].state, 'complete');
    assert.equal(media(h)[0].actions, undefined);
  });
});
