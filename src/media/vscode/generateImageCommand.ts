// UI adapter: Generate Image…: asks for the prompt (the editor selection is offered), model, size and count, shows
// cancellable progress, keeps the result in the Media history and opens it in the gallery. With an argument
// `{ prompt, model?, size?, count?, responseFormat? }` it asks nothing. Resolves with the new entry, or undefined
// (cancelled, or failed: the failure is shown, with Try Again).
import { accessAdvice } from '../../ui/core/errorAdvice';
import type { UserInterface } from '../../ui/vscode/userInterface';
import { MEDIA_COMMANDS } from './commands';
import { mediaFailureAdvice } from '../core/mediaAdvice';
import type { MediaEntry } from '../core/mediaEntry';
import { generateImages, type MediaCoreDeps } from '../core/mediaGeneration';
import { askCount, askModel, askSize, askText, selectedText } from './mediaInputsView';
import type { MediaPanels } from './mediaPanel';
import { imageAskOf, MediaRequestError, promptProblem, type ImageAsk } from '../core/mediaRequest';

export interface MediaCommandDeps {
  core: MediaCoreDeps;
  panels: Pick<MediaPanels, 'show'>;
  reveal(id: string): Promise<void>;
  ui: UserInterface;
  /** The injected clock's time: which listed models retire soon. */
  now(): number;
}

export class GenerateImageCommand {
  constructor(private readonly deps: MediaCommandDeps) {}

  async run(argument?: unknown): Promise<MediaEntry | undefined> {
    let ask: ImageAsk | undefined;
    if (argument !== undefined) {
      try {
        ask = imageAskOf(argument);
      } catch (error) {
        void this.deps.ui.notify('error', `Generate Image: ${(error as MediaRequestError).message}`);
        return undefined;
      }
    } else {
      const access = await this.deps.core.connection.access();
      if (!access.ok) {
        this.deps.ui.advise(accessAdvice(access), 'warning');
        return undefined;
      }
      ask = await this.ask();
    }
    return ask ? this.generate(ask) : undefined;
  }

  private async ask(): Promise<ImageAsk | undefined> {
    const defaults = this.deps.core.settings();
    const title = (step: number) => `Generate Image (${step}/4)`;
    const selection = selectedText();
    const prompt = await askText(this.deps.ui, title(1), 'Describe the image.', 'A lighthouse on a cliff at dawn, watercolour', selection, promptProblem);
    if (prompt === undefined) return undefined;
    const model = await askModel(this.deps.ui, title(2), 'image', defaults.imageModel, () => this.deps.core.models.load(), () => this.deps.now());
    if (model === undefined) return undefined;
    const size = await askSize(this.deps.ui, title(3), defaults.imageSize);
    if (size === undefined) return undefined;
    const count = await askCount(this.deps.ui, title(4), defaults.imageCount);
    if (count === undefined) return undefined;
    return { prompt, model, size, count };
  }

  private async generate(ask: ImageAsk): Promise<MediaEntry | undefined> {
    const count = ask.count ?? this.deps.core.settings().imageCount;
    const title = `Generating ${count === 1 ? 'an image' : `${count} images`}${ask.model ? ` with ${ask.model}` : ''}…`;
    try {
      const outcome = await this.deps.ui.withProgress(title, (_report, signal) => generateImages(this.deps.core, ask, { signal }), { cancellable: true });
      this.deps.panels.show(outcome.entry);
      void this.deps.reveal(outcome.entry.id);
      if (outcome.notes.length > 0) void this.deps.ui.notify('warning', `Not everything the gateway sent was kept. ${outcome.notes.join(' ')}`);
      return outcome.entry;
    } catch (error) {
      const advice = mediaFailureAdvice(error, { origin: this.deps.core.connection.origin, model: ask.model, what: 'image', retry: { title: 'Try Again', command: MEDIA_COMMANDS.generateImage, args: [ask] } });
      if (advice.kind === 'aborted') this.deps.ui.status('Image generation cancelled.');
      else this.deps.ui.advise(advice);
      return undefined;
    }
  }
}
