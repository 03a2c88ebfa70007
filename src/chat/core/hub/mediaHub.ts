// The chat as the hub for images, video and speech: runs a chat's /image, /video, /speak and /transcribe, each reply's "Read
// aloud", and the media turns' actions, keeping each media turn in the session like any other turn. Pure: the media
// and video features are reached through their core/api.ts (a video turn is the Video Jobs store's own job, polled there).
import type { AudioAttachment } from '../../../chatProtocol/attachments';
import { LIMITS, type ChatSession, type MediaKind, type MediaTurn } from '../../../chatProtocol/session';
import { parseSlash } from '../../../chatProtocol/slash';
import { clip } from '../../../chatProtocol/validate';
import type { MediaActionKind, MediaAudioMessage } from '../../../chatProtocol/messages';
import type { Clock } from '../../../util/clock';
import type { Logger } from '../../../util/logger';
import { Emitter, type Disposable, type Event } from '../../../util/events';
import { ResultLinkChecks, type CheckLink, type LinkCheckState } from './linkChecks';
import type { KeptMedia, MediaApi } from '../../../media/core/api';
import type { VideoApi, VideoJob } from '../../../videos/core/api';
import { spokenText } from './spokenText';
import { ArrivingSpeech } from './arrivingSpeech';
import { chatProfileId } from '../chatProfile';
import { AdvisedError } from '../../../ui/core/errorAdvice';
import type { ImageAttachment } from '../../../chatProtocol/attachments';
import type { ContextTray } from '../context/contextTray';

/** The chat session the hub adds its turns to (ChatController). */
export interface MediaTurnHost {
  readonly session: Readonly<ChatSession>;
  addMediaTurn(turn: MediaTurn): Promise<void>;
  updateMediaTurn(turn: MediaTurn): Promise<boolean>;
}

/** The next message's attachments (the chat's context tray): /image and /video take an attached image from it. */
export type AttachedImages = Pick<ContextTray, 'attachments' | 'take'>;

/** The media and video features, as the chat reaches them: the services their definitions build at activation. */
export interface ChatMediaPorts {
  media: MediaApi;
  videos: VideoApi;
}

/** Where /transcribe finds the attached audio files and puts their transcripts: the chat's context (ChatContext). */
export interface TranscriptContext {
  /** The audio files attached, taken out of the context. */
  takeAudio(): AudioAttachment[];
  /** Puts a transcript into the context of the next message. */
  addTranscript(name: string, text: string): void;
  /** Gives an audio file that was not transcribed back to the context. */
  restoreAudio(audio: AudioAttachment): void;
  warn(message: string): void;
}

export interface MediaHubDeps {
  controller: MediaTurnHost;
  /** The chat's context, for /transcribe (without it /transcribe says it cannot run). */
  transcripts?: TranscriptContext;
  ports: ChatMediaPorts;
  clock: Clock;
  newId: () => string;
  log: Logger;
  /** Checks a result link as the extension reaches it (gateway/resultFetch's checkResultLink, through the API's proxy). */
  checkLink: CheckLink;
}

export class ChatMediaHub implements Disposable {
  private readonly running = new Map<string, AbortController>();
  /**
   * The image attached to a /image (edited) or /video (its first frame) turn, by turn id, for its run and its
   * Regenerate while the chat is open. The turn itself keeps only its name: the bytes are the tray's, not the session's.
   */
  private readonly sources = new Map<string, ImageAttachment>();
  private readonly subscriptions: Disposable[];
  private disposed = false;
  private readonly links: ResultLinkChecks;
  private readonly sourcesChanged = new Emitter<string[]>();
  /** Fires with the media turns whose source changed: a check of their link finished, or started again. */
  readonly onDidChangeSources: Event<string[]> = this.sourcesChanged.event;
  private readonly audioHeard = new Emitter<MediaAudioMessage>();
  /** Fires with each piece of a /speak turn's audio as it arrives (and its end), for the page to play at once. */
  readonly onDidHearAudio: Event<MediaAudioMessage> = this.audioHeard.event;

  constructor(private readonly deps: MediaHubDeps) {
    this.links = new ResultLinkChecks(deps.checkLink);
    this.subscriptions = [
      deps.ports.videos.onDidChange((keys) => void this.followJobs(keys)),
      this.links.onDidChange((url) => {
        const ids = this.deps.controller.session.turns.filter((t) => t.role === 'media' && t.url === url).map((t) => t.id);
        if (ids.length > 0) this.sourcesChanged.fire(ids);
      }),
      this.links,
      this.sourcesChanged,
      this.audioHeard,
    ];
    // Jobs that moved on while the chat was closed, and requests a closed window left without an answer.
    const leftPending = deps.controller.session.turns.filter((t) => t.role === 'media' && t.kind !== 'video' && t.state === 'pending').map((t) => t.id);
    void this.followJobs(undefined).then(() => this.settleInterrupted(leftPending));
  }

  /**
   * Runs `text` when it is a slash command (true), else leaves it to the chat (false). /image with an image attached
   * edits that image; /video starts from it (its first frame). The image is taken from `tray`; other attachments stay.
   */
  handleSend(text: string, tray?: AttachedImages): boolean {
    const parsed = parseSlash(text);
    if (!parsed) return false;
    if (!parsed.ok) {
      // The webview checks with the same reader before sending; only a stale or foreign view gets here.
      this.deps.log.warn(`Chat: ${parsed.problem}`);
      return true;
    }
    const { command, text: argument } = parsed;
    if (command.name === 'transcribe' || !command.kind) {
      void this.transcribe();
      return true;
    }
    if (command.kind === 'speech') {
      const spoken = argument || this.lastReplyText();
      if (!spoken) void this.addFailed(text, 'speech', '', 'There is no reply to read aloud yet. Type the text after /speak, or ask something first.');
      else void this.start(this.newTurn(text, 'speech', spoken));
      return true;
    }
    const image = command.kind === 'image' || command.kind === 'video' ? tray?.attachments.find((a): a is ImageAttachment => a.kind === 'image') : undefined;
    if (!image || !tray) {
      void this.start(this.newTurn(text, command.kind, argument));
      return true;
    }
    tray.take((a) => a === image);
    const turn = this.newTurn(`${text}\n(${command.kind === 'image' ? 'edits' : 'first frame:'} ${image.name})`, command.kind, argument);
    this.sources.set(turn.id, image);
    void this.start(turn);
    return true;
  }

  /**
   * /transcribe: each attached audio file is transcribed under the chat's profile, and its transcript put into the
   * context of the next message (a text attachment the user sees and can remove before sending). A file that fails
   * stays attached, with the reason said.
   */
  private async transcribe(): Promise<void> {
    const context = this.deps.transcripts;
    const audio = context?.takeAudio() ?? [];
    if (!context || audio.length === 0) {
      const message = 'Attach an audio file first (Add Context, drop it here, or Add to Model Gateway Chat in the Explorer), then type /transcribe.';
      return context ? context.warn(message) : this.deps.log.warn(`Chat: ${message}`);
    }
    const profile = chatProfileId(this.deps.controller.session.settings);
    for (const file of audio) {
      const abort = new AbortController();
      this.running.set(file.id, abort);
      try {
        const transcript = await this.deps.ports.media.transcribe({ path: file.path }, { signal: abort.signal, surface: 'chat-transcription', profile });
        if (this.disposed) return;
        context.addTranscript(file.name, transcript.text);
        if (transcript.clipped) context.warn(`The transcript of ${file.name} was longer than the extension keeps; it was cut.`);
      } catch (error) {
        if (this.disposed) return;
        context.restoreAudio(file);
        context.warn(`${file.name} was not transcribed: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        this.running.delete(file.id);
      }
    }
  }

  /** A reply's "Read aloud". */
  readAloud(turnId: string): void {
    const turn = this.deps.controller.session.turns.find((t) => t.id === turnId);
    if (turn?.role !== 'assistant') return;
    const text = spokenText(turn.content || turn.refusal);
    if (!text) return;
    void this.start(this.newTurn('/speak', 'speech', text));
  }

  async action(turnId: string, action: MediaActionKind): Promise<void> {
    const turn = this.mediaTurn(turnId);
    if (!turn) return;
    if (action === 'regenerate') return this.start({ ...this.baseOf(turn), state: 'pending' }, false);
    if (action === 'save' && turn.entryId && turn.fileName) return this.deps.ports.media.save(turn.entryId, turn.fileName);
    if (action === 'reveal' && turn.jobKey) return this.deps.ports.videos.reveal(turn.jobKey);
    if (action === 'retry' && turn.url) this.links.recheck(turn.url);
  }

  /** What is known of a result link the page would play from (checked the first time it is asked for). */
  link(url: string): LinkCheckState {
    return this.links.state(url);
  }

  /** The origins the page must allow beyond the turns' own links: where redirected links finally lead. */
  playableOrigins(): string[] {
    return this.links.playableOrigins();
  }

  dispose(): void {
    this.disposed = true;
    for (const subscription of this.subscriptions) subscription.dispose();
    for (const abort of this.running.values()) abort.abort();
    this.running.clear();
    this.sources.clear();
  }

  private newTurn(content: string, kind: MediaKind, prompt: string): MediaTurn {
    const model = this.deps.controller.session.settings.mediaModels?.[kind] ?? '';
    return { id: this.deps.newId(), role: 'media', createdAt: this.deps.clock.now(), kind, content: clip(content, LIMITS.text), prompt: clip(prompt, LIMITS.mediaPrompt), model, state: 'pending' };
  }

  /** The turn without its result: what Regenerate starts from (with the chat's current model choice). */
  private baseOf(turn: MediaTurn): MediaTurn {
    const { id, createdAt, kind, content, prompt } = turn;
    return { id, role: 'media', createdAt, kind, content, prompt, model: this.deps.controller.session.settings.mediaModels?.[kind] ?? '', state: 'pending' };
  }

  private async addFailed(content: string, kind: MediaKind, prompt: string, detail: string): Promise<void> {
    await this.deps.controller.addMediaTurn({ ...this.newTurn(content, kind, prompt), state: 'failed', detail });
  }

  /** Adds (or, for Regenerate, resets) the turn, then asks for its media. */
  private async start(turn: MediaTurn, add = true): Promise<void> {
    const controller = this.deps.controller;
    this.running.get(turn.id)?.abort();
    if (add) await controller.addMediaTurn(turn);
    else if (!(await controller.updateMediaTurn(turn))) return;
    const abort = new AbortController();
    this.running.set(turn.id, abort);
    let next: MediaTurn;
    try {
      next = await this.produce(turn, abort.signal);
    } catch (error) {
      if (abort.signal.aborted || this.disposed) return;
      next = failed(turn, error);
    } finally {
      if (this.running.get(turn.id) === abort) this.running.delete(turn.id);
    }
    if (!this.disposed && !abort.signal.aborted) await controller.updateMediaTurn(next);
  }

  private async produce(turn: MediaTurn, signal: AbortSignal): Promise<MediaTurn> {
    const { media, videos } = this.deps.ports;
    const model = turn.model || undefined;
    // The chat's own profile: its media go with its key, whichever profile the window uses now.
    const profile = chatProfileId(this.deps.controller.session.settings);
    const source = this.sources.get(turn.id);
    const image = source && { data: Buffer.from(source.data, 'base64'), mimeType: source.mimeType };
    if (turn.kind === 'image' && image) return kept(turn, await media.editImage({ prompt: turn.prompt, model, image }, { signal, surface: 'chat-image', profile }));
    if (turn.kind === 'image') return kept(turn, await media.generateImage({ prompt: turn.prompt, model }, { signal, surface: 'chat-image', profile }));
    if (turn.kind === 'speech') {
      // A cancelled or replaced turn's late pieces are not sent (its Regenerate has a stream of its own).
      const arriving = new ArrivingSpeech(turn.id, (message) => {
        if (!signal.aborted && !this.disposed) this.audioHeard.fire(message);
      });
      const speech = await media.synthesizeSpeech({ text: turn.prompt, model }, { signal, surface: 'chat-speech', profile, onAudio: (chunk, type) => arriving.audio(chunk, type) });
      arriving.end();
      return kept(turn, speech);
    }
    return fromJob(turn, await videos.submit({ prompt: turn.prompt, model, ...(image && { firstFrame: { data: image.data } }) }, { profile }));
  }

  /**
   * Brings the video turns whose jobs changed (all pending ones when `keys` is undefined) up to date. A finished
   * job's change that leaves its turn as it was (its result was kept, or its kept copy evicted) changes where the
   * page plays it from: those turns are sent again.
   */
  private async followJobs(keys: readonly string[] | undefined): Promise<void> {
    const resend: string[] = [];
    for (const turn of this.deps.controller.session.turns) {
      if (this.disposed) return;
      if (turn.role !== 'media' || turn.kind !== 'video' || !turn.jobKey) continue;
      if (keys ? !keys.includes(turn.jobKey) : turn.state !== 'pending') continue;
      const job = this.deps.ports.videos.job(turn.jobKey);
      if (!job) continue;
      const next = fromJob(turn, job);
      if (next.state !== turn.state || next.detail !== turn.detail || next.url !== turn.url) await this.deps.controller.updateMediaTurn(next);
      else if (turn.state === 'complete') resend.push(turn.id);
    }
    if (resend.length > 0 && !this.disposed) this.sourcesChanged.fire(resend);
  }

  /**
   * An image or speech turn still pending when the chat opens lost its request with the window that sent it. It is
   * shown as interrupted, with Regenerate; never sent again by itself (the gateway may have made it, and charged).
   */
  private async settleInterrupted(ids: readonly string[]): Promise<void> {
    for (const turn of this.deps.controller.session.turns) {
      if (this.disposed) return;
      if (!ids.includes(turn.id) || turn.role !== 'media' || turn.state !== 'pending' || this.running.has(turn.id)) continue;
      const what = turn.kind === 'image' ? 'image' : 'speech';
      await this.deps.controller.updateMediaTurn({ ...turn, state: 'failed', detail: `Interrupted: the chat was closed before the ${what} arrived. The gateway may still have made it (see the Media view); Regenerate asks again.` });
    }
  }

  private mediaTurn(turnId: string): MediaTurn | undefined {
    const turn = this.deps.controller.session.turns.find((t) => t.id === turnId);
    return turn?.role === 'media' ? turn : undefined;
  }

  private lastReplyText(): string {
    const turns = this.deps.controller.session.turns;
    for (let i = turns.length - 1; i >= 0; i--) {
      const turn = turns[i];
      if (turn.role === 'assistant' && (turn.content || turn.refusal)) return spokenText(turn.content || turn.refusal);
    }
    return '';
  }
}

/**
 * A failed turn says why; a failure the media or video feature worded (AdvisedError) keeps its advice's actions too,
 * so the card offers the same buttons as the reply's error card.
 */
function failed(turn: MediaTurn, error: unknown): MediaTurn {
  const next: MediaTurn = { ...turn, state: 'failed', detail: clip(error instanceof Error ? error.message : String(error), LIMITS.mediaDetail) };
  const actions = error instanceof AdvisedError ? error.advice.actions : [];
  if (actions.length > 0) next.actions = actions.slice(0, LIMITS.actions).map(({ title, command, args }) => (args ? { title, command, args: [...args] } : { title, command }));
  return next;
}

function kept(turn: MediaTurn, media: KeptMedia): MediaTurn {
  const next: MediaTurn = { ...turn, state: 'complete', model: media.model, entryId: media.entryId, fileName: media.fileName, contentType: media.contentType };
  delete next.detail;
  if (media.url) next.url = media.url;
  else delete next.url;
  return next;
}

function fromJob(turn: MediaTurn, job: VideoJob): MediaTurn {
  const next: MediaTurn = { ...turn, jobKey: job.key, model: job.model || turn.model, state: job.state, detail: clip(job.detail, LIMITS.mediaDetail) };
  if (job.url) {
    next.url = job.url;
    next.contentType = 'video/mp4';
  }
  return next;
}
