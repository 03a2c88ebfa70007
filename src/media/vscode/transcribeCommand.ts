// UI adapter: Transcribe Audio File…: from the palette (asks for the file and the format), from the Explorer (the
// file clicked), or with an argument `{ path, model?, format?, language? }` (asks nothing). The transcript opens in
// an untitled editor, which fills as a streamed transcript arrives; the progress notification's Cancel stops it.
// SRT and VTT keep their timings. Resolves with `{ text }`, or undefined (cancelled, or failed: the failure is shown).
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { UserInterface } from '../../ui/vscode/userInterface';
import { mediaFailureAdvice } from '../core/mediaAdvice';
import { MediaRequestError } from '../core/mediaRequest';
import { TRANSCRIBABLE_EXTENSIONS, transcribeAskOf, transcribeFile, type TranscribeAsk, type TranscribeDeps, type TranscriptFormat } from '../core/transcription';
import { MEDIA_COMMANDS } from './commands';

const FORMAT_LABELS: Record<string, TranscriptFormat> = { 'Plain text': 'text', 'SRT subtitles (with timings)': 'srt', 'WebVTT subtitles (with timings)': 'vtt' };

export class TranscribeCommand {
  constructor(private readonly deps: { core: TranscribeDeps; ui: UserInterface }) {}

  async run(argument?: unknown): Promise<{ text: string } | undefined> {
    let ask: TranscribeAsk | undefined;
    try {
      if (argument instanceof vscode.Uri) ask = await this.askFormat({ path: argument.fsPath });
      else if (argument !== undefined) ask = transcribeAskOf(argument);
      else ask = await this.askFile();
    } catch (error) {
      void this.deps.ui.notify('error', `Transcribe Audio File: ${(error as MediaRequestError).message}`);
      return undefined;
    }
    if (!ask) return undefined;
    return this.transcribe(ask);
  }

  private async askFile(): Promise<TranscribeAsk | undefined> {
    const uri = await this.deps.ui.openDialog({ title: 'Transcribe Audio File', openLabel: 'Transcribe', filters: { 'Audio and video': [...TRANSCRIBABLE_EXTENSIONS] } });
    return uri && this.askFormat({ path: uri.fsPath });
  }

  private async askFormat(ask: TranscribeAsk): Promise<TranscribeAsk | undefined> {
    const label = await this.deps.ui.pick(Object.keys(FORMAT_LABELS), { title: `Transcribe ${basename(ask.path)}`, placeHolder: 'The transcript as' });
    return label === undefined ? undefined : { ...ask, format: FORMAT_LABELS[label] };
  }

  private async transcribe(ask: TranscribeAsk): Promise<{ text: string } | undefined> {
    const document = await vscode.workspace.openTextDocument({ language: 'plaintext', content: '' });
    const editor = await this.deps.ui.showEditor(document, { preview: false });
    // Edits are applied one after another, so the pieces of a stream land in order.
    let edits: Thenable<unknown> = Promise.resolve();
    let shown = '';
    const append = (piece: string): void => {
      shown += piece;
      edits = edits.then(() => editor.edit((builder) => builder.insert(document.positionAt(document.getText().length), piece)));
    };
    try {
      const title = `Transcribing ${basename(ask.path)}…`;
      const result = await this.deps.ui.withProgress(title, (_report, signal) => transcribeFile(this.deps.core, ask, { signal, onDelta: append }), { cancellable: true });
      await edits;
      if (result.text !== shown) await editor.edit((builder) => builder.replace(document.lineAt(document.lineCount - 1).range.with(document.positionAt(0)), result.text));
      if ((ask.format ?? 'text') !== 'text' && !result.timed) this.deps.ui.status(`The gateway sent plain text without timings instead of ${ask.format?.toUpperCase()}.`);
      if (result.clipped) void this.deps.ui.notify('warning', 'The transcript was longer than the extension keeps; it was cut.');
      return { text: result.text };
    } catch (error) {
      await edits;
      const advice = mediaFailureAdvice(error, { what: 'transcription', origin: this.deps.core.connection.origin, model: ask.model, retry: { title: 'Try Again', command: MEDIA_COMMANDS.transcribeAudio, args: [ask] } });
      if (advice.kind === 'aborted') this.deps.ui.status(shown === '' ? 'Transcription cancelled.' : 'Transcription stopped; the editor keeps what had arrived.');
      else this.deps.ui.advise(advice);
      return undefined;
    }
  }
}
