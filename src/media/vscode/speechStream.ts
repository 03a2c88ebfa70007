// UI adapter: speech played while it arrives. Synthesize Speech hands each piece of audio here (`audio`) and the
// growing file's start (`start`, once its first bytes are on disk); the player panel opens then, for types a
// webview may play through Media Source Extensions (MP3, AAC, WebM), and the page says whether it can. If it can,
// the pieces go to it (those that came before it was ready first), bounded per message (webview/player/protocol.ts) and in
// all by the speech size limit; if not, or for WAV, FLAC and PCM (for which no panel opens early), the audio plays
// once the kept file is there, as before. A panel the user closes hears nothing more.
import type * as vscode from 'vscode';
import type { AudioType } from '../../gateway/mediaTypes';
import type { AudioStart } from '../core/growingAudio';
import { PLAYER_SHAPES, pieceMessages, type PlayerRequest, type PlayerUpdate } from '../../webview/player/protocol';
import type { HostedPage } from '../../ui/vscode/webviewHost';
import type { ProtocolPort } from '../../chatProtocol/webviewProtocol';
import { STREAMED_AUDIO_TYPES } from '../../chatProtocol/audioPieces';

/** Types a webview may play as they arrive (the page still asks its browser). */
export const STREAMED_TYPES: ReadonlySet<AudioType> = new Set<AudioType>(STREAMED_AUDIO_TYPES);

export interface SpeechStreamDeps {
  maxBytes: number;
  /** Opens the streaming player for the type (its page is rendered; messages are connected here). */
  open(contentType: AudioType): HostedPage;
  log: Pick<vscode.LogOutputChannel, 'warn' | 'error'>;
}

type Mode = 'unopened' | 'waiting' | 'streaming' | 'fileOnly' | 'closed';

export class SpeechStream {
  private mode: Mode = 'unopened';
  private page: HostedPage | undefined;
  private port: ProtocolPort<PlayerRequest, PlayerUpdate> | undefined;
  private readonly queue: Uint8Array[] = [];
  private bytes = 0;
  private ended = false;
  private finish: PlayerUpdate | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The types of the messages sent to the page, in order (host tests read it). */
  readonly sent: Array<PlayerUpdate['type']> = [];

  constructor(private readonly deps: SpeechStreamDeps) {}

  /** The panel, once open (undefined when the audio's type does not stream, or it was closed). */
  get panel(): vscode.WebviewPanel | undefined {
    return this.mode === 'closed' ? undefined : this.page?.panel;
  }

  /** A piece of audio, in order; past the size limit nothing more is taken. */
  audio(chunk: Uint8Array): void {
    if (this.mode === 'closed' || this.mode === 'fileOnly' || this.bytes + chunk.length > this.deps.maxBytes) return;
    this.bytes += chunk.length;
    if (this.mode === 'streaming') this.sendPieces(chunk);
    else this.queue.push(Uint8Array.from(chunk));
  }

  /** The first bytes are on disk: the player opens now, for a type that may stream. */
  start(start: AudioStart): void {
    if (this.mode !== 'unopened') return;
    if (!STREAMED_TYPES.has(start.contentType)) return this.close();
    const page = this.deps.open(start.contentType);
    this.page = page;
    this.mode = 'waiting';
    const { port, subscription } = page.connect('Speech player', PLAYER_SHAPES, (message) => this.ready(message.streaming), this.deps.log);
    this.port = port;
    this.subscriptions.push(subscription, page.panel.onDidDispose(() => this.close()));
  }

  /** The gateway has sent all of the audio. */
  end(): void {
    this.ended = true;
    if (this.mode === 'streaming') this.post({ type: 'end' });
  }

  /** The entry is kept: the page moves to its file (`src`, a webview URI of it) and shows Save and Open. */
  complete(entryId: string, src: (page: HostedPage) => string): void {
    this.end();
    if (this.page && this.mode !== 'closed') this.finishWith({ type: 'complete', src: src(this.page), entry: entryId });
  }

  /** The answer failed: the page says so. */
  fail(message: string): void {
    this.finishWith({ type: 'failed', message });
  }

  private finishWith(message: PlayerUpdate): void {
    this.finish = message;
    this.queue.length = 0;
    if (this.mode === 'streaming' || this.mode === 'fileOnly') this.post(message);
  }

  /**
   * The page is loaded. The first time it says whether it streams; a page loaded again (VS Code reloads a hidden
   * webview when it is shown) waits for the kept file, since the pieces it had are gone.
   */
  private ready(streaming: boolean): void {
    if (this.mode === 'closed') return;
    if (this.mode !== 'waiting' || !streaming) {
      this.mode = 'fileOnly';
      this.queue.length = 0;
      if (this.finish) this.post(this.finish);
      return;
    }
    this.mode = 'streaming';
    for (const chunk of this.queue.splice(0)) this.sendPieces(chunk);
    if (this.ended) this.post({ type: 'end' });
    if (this.finish) this.post(this.finish);
  }

  private sendPieces(chunk: Uint8Array): void {
    for (const message of pieceMessages(chunk, (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'))) this.post(message);
  }

  private post(message: PlayerUpdate): void {
    if (this.mode === 'closed' || !this.port) return;
    this.sent.push(message.type);
    this.port.send(message);
  }

  private close(): void {
    this.mode = 'closed';
    this.queue.length = 0;
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }
}
