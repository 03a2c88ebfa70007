// UI adapter: Read Selection Aloud (the editor selection, no questions) and Synthesize Speech… (typed text, the
// selection offered, and a voice). Both keep the audio in the Media history and play it in the player beside the
// editor. With an argument `{ text, model?, voice?, format?, streamFormat? }` Synthesize Speech asks nothing. Each resolves with the
// new entry, or undefined (cancelled, or failed: the failure is shown, with Try Again). Audio that arrives in pieces
// (a chunked body, or `streamFormat: 'sse'`) starts playing at its first bytes, in a player that streams
// (speechStream.ts), where its type allows; otherwise the player opens on the kept file.
import { accessAdvice } from '../../ui/core/errorAdvice';
import { MEDIA_COMMANDS } from './commands';
import type { MediaCommandDeps } from './generateImageCommand';
import type { MediaPanels } from './mediaPanel';
import { mediaFailureAdvice } from '../core/mediaAdvice';
import type { MediaEntry } from '../core/mediaEntry';
import { synthesizeSpeech } from '../core/mediaGeneration';
import { askText, askVoice, selectedText } from './mediaInputsView';
import { speechAskOf, speechTextProblem, type MediaRequestError, type SpeechAsk } from '../core/mediaRequest';

export type SpeechCommandDeps = MediaCommandDeps & { panels: Pick<MediaPanels, 'show' | 'stream' | 'adopt'> };

export class SpeechCommands {
  constructor(private readonly deps: SpeechCommandDeps) {}

  handlers(): Record<'readSelectionAloud' | 'synthesizeSpeech', (argument?: unknown) => Promise<MediaEntry | undefined>> {
    return {
      readSelectionAloud: () => this.readSelectionAloud(),
      synthesizeSpeech: (argument) => this.synthesize(argument),
    };
  }

  async readSelectionAloud(): Promise<MediaEntry | undefined> {
    const text = selectedText();
    if (text === '') {
      const type = 'Type Text…';
      const choice = await this.deps.ui.notify('info', 'Select the text to read aloud first, or type it.', type);
      return choice === type ? this.synthesize() : undefined;
    }
    const problem = speechTextProblem(text);
    if (problem) {
      void this.deps.ui.notify('error', `Read Selection Aloud: ${problem}`);
      return undefined;
    }
    if (!(await this.ensureAccess())) return undefined;
    return this.speak({ text });
  }

  async synthesize(argument?: unknown): Promise<MediaEntry | undefined> {
    if (argument !== undefined) {
      try {
        return await this.speak(speechAskOf(argument));
      } catch (error) {
        void this.deps.ui.notify('error', `Synthesize Speech: ${(error as MediaRequestError).message}`);
        return undefined;
      }
    }
    if (!(await this.ensureAccess())) return undefined;
    const text = await askText(this.deps.ui, 'Synthesize Speech (1/2)', 'The text to speak.', 'Type or paste the text', selectedText(), speechTextProblem);
    if (text === undefined) return undefined;
    const voice = await askVoice(this.deps.ui, 'Synthesize Speech (2/2)', this.deps.core.settings().voice);
    if (voice === undefined) return undefined;
    return this.speak({ text, voice });
  }

  private async ensureAccess(): Promise<boolean> {
    const access = await this.deps.core.connection.access();
    if (!access.ok) this.deps.ui.advise(accessAdvice(access), 'warning');
    return access.ok;
  }

  private async speak(ask: SpeechAsk): Promise<MediaEntry | undefined> {
    const stream = this.deps.panels.stream(ask.text, this.deps.core.settings().maxBytes);
    try {
      const entry = await this.deps.ui.withProgress(
        'Synthesizing speech…',
        (_report, signal) => synthesizeSpeech(this.deps.core, ask, { signal, onAudio: (chunk) => stream.audio(chunk), onAudioStart: (start) => stream.start(start) }),
        { cancellable: true },
      );
      this.deps.panels.adopt(entry, stream);
      this.deps.panels.show(entry, { beside: true });
      void this.deps.reveal(entry.id);
      return entry;
    } catch (error) {
      const advice = mediaFailureAdvice(error, { origin: this.deps.core.connection.origin, model: ask.model, what: 'speech', retry: { title: 'Try Again', command: MEDIA_COMMANDS.synthesizeSpeech, args: [ask] } });
      stream.fail(advice.kind === 'aborted' ? 'it was cancelled.' : advice.message);
      if (advice.kind === 'aborted') this.deps.ui.status('Speech cancelled.');
      else this.deps.ui.advise(advice);
      return undefined;
    }
  }
}
