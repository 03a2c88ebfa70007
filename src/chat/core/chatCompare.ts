// One chat's comparison: starts it (with the chat's conversation and pending context), reports it, keeps the reply
// the user prefers in the thread (with the context it was asked with), or closes it. Pure; which models to compare is
// asked through the injected `pickModels` when the webview does not say.
import type { CompareState } from '../../chatProtocol/messages';
import { Emitter, type Disposable, type Event } from '../../util/events';
import type { ChatContext } from './chatContext';
import type { ChatController } from './chatController';
import { COMPARE_MODELS, CompareRun, type CompareDeps } from './compareRun';

export interface ChatCompareDeps extends CompareDeps {
  /** Asks which 2 or 3 models to compare; undefined when the user cancels. */
  pickModels(current: string): Promise<string[] | undefined>;
  newId(): string;
  warn(message: string): void;
}

export class ChatCompare implements Disposable {
  private run: CompareRun | undefined;
  private readonly changed = new Emitter<CompareState | null>();
  readonly onDidChange: Event<CompareState | null> = this.changed.event;

  constructor(
    private readonly controller: ChatController,
    private readonly context: ChatContext,
    private readonly deps: ChatCompareDeps,
  ) {}

  get state(): CompareState | null {
    return this.run?.state ?? null;
  }

  /** The comparison running now (tests wait on it). */
  get current(): CompareRun | undefined {
    return this.run;
  }

  /** Starts a comparison; false when none was started (a reply is running, too few models, the user cancelled). */
  async start(text: string, models: readonly string[]): Promise<boolean> {
    if (this.controller.refusal) {
      this.deps.warn('Wait for the reply to finish (or stop it) before comparing models.');
      return false;
    }
    const chosen = models.length > 0 ? [...new Set(models)] : await this.deps.pickModels(this.controller.session.settings.model);
    if (!chosen) return false;
    if (chosen.length < COMPARE_MODELS.min || chosen.length > COMPARE_MODELS.max) {
      this.deps.warn(`Compare needs ${COMPARE_MODELS.min} or ${COMPARE_MODELS.max} different models (${chosen.length} chosen).`);
      return false;
    }
    // Compare sends the whole conversation to every model: it is never sent over a model's window, nor cut.
    const over = chosen.find((model) => {
      const fit = this.context.fitFor(text, model);
      return fit.fromIndex > 0 || !fit.fits;
    });
    if (over) {
      this.deps.warn(`Not compared: the chat and the question would overflow the context window of ${over}. Send the question in the chat instead, which offers to leave out the oldest turns or to branch a new chat from a summary.`);
      return false;
    }
    // Nothing leaves when the chat cannot be saved (the store tells the user; the question goes back to the input).
    if (!(await this.controller.saveBeforeSend())) return false;
    this.close();
    const session = this.controller.session;
    const run = new CompareRun(this.deps.newId(), { text, attachments: [...this.context.tray.attachments] }, session.turns, session.settings, chosen, this.deps);
    this.run = run;
    run.onDidChange((state) => this.changed.fire(state));
    this.changed.fire(run.state);
    return true;
  }

  /** Keeps one reply: the question, its context and that reply join the thread; the comparison closes. */
  async keep(id: string, index: number): Promise<boolean> {
    const run = this.run;
    const column = run?.id === id ? run.column(index) : undefined;
    const status = run?.id === id ? run.kept(index) : undefined;
    if (!run || !column || !status) return false;
    // The other replies are no longer wanted.
    run.stop();
    const kept = await this.controller.keepReply(run.question, { model: column.model, content: column.content, usage: column.usage, finishReason: column.finishReason, ...status });
    if (!kept) return false;
    this.context.tray.take();
    this.close();
    return true;
  }

  close(): void {
    if (!this.run) return;
    this.run.dispose();
    this.run = undefined;
    this.changed.fire(null);
  }

  dispose(): void {
    this.run?.dispose();
    this.run = undefined;
    this.changed.dispose();
  }
}
