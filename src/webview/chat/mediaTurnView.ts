// A /image, /video or /speak turn in the transcript: what was typed, then the media itself (an image, a video that
// plays inline, an audio player), its live status while pending, or why it failed. "Expired" with Regenerate (a new,
// paid request) only when the extension itself found the link gone; a link it could not reach, or a source that does
// not load here, offers Retry (the host checks the link again), never a broken element. Sources come only from the
// host, checked by the protocol; the page's CSP allows only the origins of the results the extension received.
import type { MediaAudioMessage, WebviewMessage } from '../../chatProtocol/messages';
import type { WireMediaTurn } from '../../chatProtocol/mediaTurn';
import type { Announcer } from './announcer';
import { el, icon, iconButton, textButton } from './dom';
import { canStream, decodePiece, moveToFile, StreamingAudio } from '../player/streamingAudio';

/** A /speak turn's audio playing while it arrives (the player's own stream), until the kept file takes its place. */
interface Arriving {
  audio: HTMLAudioElement;
  stream: StreamingAudio;
  /** The offset the next piece must start at: one missed (a page loaded midway) ends the stream where it is. */
  next: number;
}

export interface MediaTurnContext {
  post(message: WebviewMessage): void;
  announcer: Announcer;
}

const KIND_ICON = { image: 'file-media', video: 'device-camera-video', speech: 'unmute' } as const;
const KIND_NAME = { image: 'Image', video: 'Video', speech: 'Speech' } as const;

export class MediaTurnView {
  readonly root: HTMLElement;
  private readonly body = el('div', { class: 'media-body' });
  private readonly status = el('div', { class: 'media-status', attrs: { role: 'status' } });
  private readonly actions = el('div', { class: 'turn-actions' });
  private readonly modelBadge = el('span', { class: 'model-badge' });
  private readonly text = el('div', { class: 'user-text' });
  private shown: WireMediaTurn | undefined;
  /** The source failed to load here; Retry asks the host to check the link again. */
  private loadFailed = false;
  private arriving: Arriving | undefined;

  constructor(
    private turn: WireMediaTurn,
    private readonly context: MediaTurnContext,
  ) {
    const header = el('div', { class: 'turn-header' }, icon(KIND_ICON[turn.kind]), el('span', { class: 'who', text: KIND_NAME[turn.kind] }), this.modelBadge, this.actions);
    this.root = el('article', { class: `turn media-turn media-turn-${turn.kind}`, attrs: { 'aria-label': `${KIND_NAME[turn.kind]} turn`, 'data-turn-id': turn.id, tabindex: '-1' } }, header, this.text, this.body, this.status);
    this.render();
  }

  get id(): string {
    return this.turn.id;
  }

  get pending(): boolean {
    return this.turn.state === 'pending';
  }

  update(turn: WireMediaTurn): void {
    const finished = this.turn.state === 'pending' && turn.state !== 'pending';
    const streamed = this.arriving !== undefined;
    this.turn = turn;
    this.render();
    if (!finished) return;
    this.context.announcer.say(turn.state === 'complete' ? `${KIND_NAME[turn.kind]} ready.` : `${KIND_NAME[turn.kind]} failed: ${turn.detail ?? ''}`);
    // Speech the user just asked for is read at once (a restored chat never plays by itself); streamed speech already is.
    if (turn.kind === 'speech' && turn.state === 'complete' && !streamed) void this.body.querySelector('audio')?.play().catch(() => undefined);
  }

  /**
   * A piece of this pending /speak turn's audio, or its end. The first piece (offset 0) starts a player that plays
   * as the audio arrives, where the browser can (MP3, and AAC or WebM where built in); otherwise, or for a page that
   * came in midway, the card plays once the kept file is there, as for WAV.
   */
  audio(message: MediaAudioMessage): void {
    if (this.turn.kind !== 'speech' || this.turn.state !== 'pending') return;
    const arriving = this.arriving;
    if (message.type === 'mediaAudioEnd') return arriving?.stream.end();
    if (!arriving) {
      if (message.at === 0 && canStream(message.contentType)) this.startStream(message.contentType, decodePiece(message.data));
      return;
    }
    if (message.at !== arriving.next) return arriving.stream.end();
    const bytes = decodePiece(message.data);
    arriving.next += bytes.length;
    arriving.stream.append(bytes);
  }

  dispose(): void {
    this.arriving?.stream.release();
    this.arriving = undefined;
    this.root.remove();
  }

  private render(): void {
    const turn = this.turn;
    this.text.textContent = turn.content;
    this.modelBadge.textContent = turn.model;
    this.modelBadge.hidden = turn.model === '';
    this.root.setAttribute('aria-busy', String(turn.state === 'pending'));
    // The element is kept while its source stays the same: a status update must not restart a playing video.
    const same = this.shown && this.shown.src === turn.src && this.shown.state === turn.state && this.shown.linkState === turn.linkState && this.shown.linkProblem === turn.linkProblem;
    if (!(same && turn.state === 'complete' && !this.loadFailed)) this.renderBody();
    this.shown = turn;
    this.renderStatus();
    this.renderActions();
  }

  private startStream(contentType: string, first: Uint8Array<ArrayBuffer>): void {
    const audio = this.audioElement();
    audio.autoplay = true;
    // The browser refused the stream: the kept file plays once it is there.
    const stream = new StreamingAudio(audio, contentType, () => undefined);
    stream.append(first);
    this.arriving = { audio, stream, next: first.length };
    this.body.replaceChildren(audio);
  }

  /** The kept file takes the stream's place in the same element (after a pause, if it is playing). */
  private endStream(src: string | undefined): boolean {
    const arriving = this.arriving;
    this.arriving = undefined;
    if (!arriving) return false;
    if (!src || this.turn.state !== 'complete') {
      arriving.stream.release();
      return false;
    }
    const audio = arriving.audio;
    moveToFile(audio, arriving.stream, src, () => undefined, () => audio.addEventListener('error', () => this.showNotLoaded(), { once: true }));
    return true;
  }

  private renderBody(): void {
    const turn = this.turn;
    // The audio playing as it arrived stays while the turn is pending, and moves to the kept file when there is one.
    if (this.arriving && turn.state === 'pending') return;
    if (this.endStream(turn.src)) return;
    this.loadFailed = false;
    this.body.replaceChildren();
    if (turn.state !== 'complete') return;
    if (turn.src) {
      const media = this.mediaElement(turn.src);
      media.addEventListener('error', () => this.showNotLoaded(), { once: true });
      this.body.append(media);
    } else if (turn.linkState === 'checking') {
      this.body.append(el('div', { class: 'media-checking', attrs: { role: 'status' } }, icon('loading codicon-modifier-spin'), el('span', { text: 'Checking the gateway’s link…' })));
    } else if (turn.linkState === 'unreachable') {
      this.showRetry(`The ${this.kindName()} could not be reached: ${turn.linkProblem ?? 'the link did not answer'}`);
    } else this.showExpired();
    this.renderActions();
  }

  private kindName(): string {
    return KIND_NAME[this.turn.kind].toLowerCase();
  }

  /** The page could not load a source the host found fetchable (a link that stopped working since, a format it cannot play). */
  private showNotLoaded(): void {
    this.loadFailed = true;
    this.showRetry(`The ${this.kindName()} did not load here.`);
    this.renderActions();
  }

  private showRetry(text: string): void {
    this.body.replaceChildren(
      el(
        'div',
        { class: 'media-unreachable', attrs: { role: 'group', 'aria-label': 'Media not loaded' } },
        icon('warning'),
        el('span', { text }),
        textButton('refresh', 'Retry', () => {
          // The element is built again once the host has answered, even with the same source.
          this.shown = undefined;
          this.post('retry');
        }),
      ),
    );
  }

  /** Only a failed turn, or a result the extension found gone, is worth asking (and paying) for again. */
  private gone(): boolean {
    const turn = this.turn;
    return turn.state === 'failed' || (turn.state === 'complete' && !turn.src && turn.linkState !== 'checking' && turn.linkState !== 'unreachable');
  }

  private mediaElement(src: string): HTMLElement {
    const turn = this.turn;
    const type = turn.contentType ?? '';
    if (turn.kind === 'image' || type.startsWith('image/')) {
      return el('img', { class: 'media-image', attrs: { src, alt: `Generated image: ${turn.prompt}` } });
    }
    const isVideo = turn.kind === 'video' || type.startsWith('video/');
    const player = isVideo ? el('video', { class: 'media-video', attrs: { controls: '', preload: 'metadata', playsinline: '', 'aria-label': `${KIND_NAME[turn.kind]}: ${turn.prompt}` } }) : this.audioElement();
    // An error on the element itself (a refused or expired source) shows "expired"; a source child's error does not bubble.
    player.setAttribute('src', src);
    return player;
  }

  private audioElement(): HTMLAudioElement {
    return el('audio', { class: 'media-audio', attrs: { controls: '', preload: 'metadata', 'aria-label': `${KIND_NAME[this.turn.kind]}: ${this.turn.prompt}` } });
  }

  private showExpired(): void {
    const turn = this.turn;
    this.body.replaceChildren(
      el(
        'div',
        { class: 'media-expired', attrs: { role: 'group', 'aria-label': 'Media no longer available' } },
        icon('history'),
        el('span', { text: `expired: this ${KIND_NAME[turn.kind].toLowerCase()} is no longer available (${turn.linkProblem ? `${turn.linkProblem.replace(/\.$/, '')}, ` : 'its link expired, '}and no copy is kept).` }),
        textButton('refresh', 'Regenerate', () => this.post('regenerate')),
      ),
    );
  }

  private renderStatus(): void {
    const turn = this.turn;
    this.status.className = `media-status media-${turn.state}`;
    if (turn.state === 'pending') {
      this.status.replaceChildren(icon('loading codicon-modifier-spin'), el('span', { text: turn.detail ? `${KIND_NAME[turn.kind]} job: ${turn.detail}` : `Making the ${KIND_NAME[turn.kind].toLowerCase()}…` }));
    } else if (turn.state === 'failed') {
      // The failure's advice as buttons, as the reply's error card shows them: the click names the index, and the
      // host runs that turn's own action only when advice offers it.
      const advice = (turn.actions ?? []).map((title, index) => textButton('arrow-right', title, () => this.context.post({ type: 'errorAction', turnId: turn.id, index })));
      this.status.replaceChildren(icon('error'), el('span', { text: turn.detail ?? 'It failed.' }), ...advice, textButton('refresh', 'Regenerate', () => this.post('regenerate')));
    } else this.status.replaceChildren();
    this.status.hidden = this.status.childElementCount === 0;
  }

  private renderActions(): void {
    const turn = this.turn;
    const buttons: HTMLElement[] = [];
    if (turn.url) buttons.push(iconButton('link-external', 'Open the gateway’s link', () => this.context.post({ type: 'openLink', href: turn.url! })));
    if (turn.kind !== 'video' && turn.state === 'complete' && turn.src && turn.src !== turn.url) buttons.push(iconButton('save', 'Save to workspace', () => this.post('save')));
    if (turn.kind === 'video') buttons.push(iconButton('list-tree', 'Show in Video Jobs', () => this.post('reveal')));
    if (this.gone()) buttons.push(iconButton('refresh', 'Regenerate', () => this.post('regenerate')));
    this.actions.replaceChildren(...buttons);
  }

  private post(action: 'regenerate' | 'save' | 'reveal' | 'retry'): void {
    this.context.post({ type: 'mediaAction', turnId: this.turn.id, action });
  }
}
