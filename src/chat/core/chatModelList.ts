// The chat model picker's list, read from the chat's profile's ModelCatalog (the same cache List Models and VS Code's
// chat use for that profile): whatever loads or drops that list, every chat of the profile follows. This holds no
// list of its own, only whether this feature's own request is running and how it failed. ChatModelLists keeps one
// per profile, so a chat lists its own profile's models, whichever profile the window uses.
import { effortLevelsOf, type CatalogModel, type CatalogSnapshot, type LoadOptions } from '../../models/core/api';
import { DEFAULT_EFFORT_LEVELS } from '../../gateway/reasoningEffort';
import { listableModels, type ModelsState } from '../../chatProtocol/messages';
import { contextWindowOf, retiringMarks, seesImages } from '../../models/core/api';
import { Emitter, type Disposable, type Event } from '../../util/events';

/** What the chat needs of ModelCatalog. */
export interface ModelCatalogView {
  readonly current: CatalogSnapshot | undefined;
  readonly onDidChange: Event<CatalogSnapshot | undefined>;
  load(options?: LoadOptions): Promise<CatalogSnapshot | undefined>;
  /** Characters per token learned per model, as the factor for the flat estimates (models/core/tokenRatios.ts). */
  readonly tokens?: () => { scale(model: string): number };
}

export const NOT_CONFIGURED = 'Set the gateway URL and API key to list the models.';

export class ChatModelList implements Disposable {
  private readonly changed = new Emitter<ModelsState>();
  /** Fires with the new state whenever the list, the loading flag or the error changes. */
  readonly onDidChange: Event<ModelsState> = this.changed.event;
  /** Fires when the catalog dropped its list (the gateway or key changed). */
  private readonly dropped = new Emitter<void>();
  readonly onDidDrop: Event<void> = this.dropped.event;
  private loads = 0;
  private error: string | undefined;
  private readonly subscription: Disposable;

  constructor(
    private readonly catalog: ModelCatalogView,
    private readonly describeError: (error: unknown) => string,
    /** The levels of `modelGateway.reasoningEffortLevels` (undefined: the default set). */
    private readonly settingLevels: () => readonly string[] | undefined = () => undefined,
    /** The clock's time, to mark models that retire within 30 days. */
    private readonly now?: () => number,
  ) {
    this.subscription = catalog.onDidChange((snapshot) => {
      this.error = undefined;
      this.changed.fire(this.state);
      if (!snapshot) this.dropped.fire();
    });
  }

  get state(): ModelsState {
    const listed = this.catalog.current?.models ?? [];
    const ofKind = (kind: string) => listableModels(listed.filter((m) => m.kind === kind).map((m) => m.id));
    const state: ModelsState = { models: ofKind('chat'), loading: this.loads > 0 };
    const media = { image: ofKind('image'), video: ofKind('video'), speech: ofKind('speech') };
    if (media.image.length + media.video.length + media.speech.length > 0) state.media = media;
    const retiring = this.now ? retiringMarks(listed, this.now()) : {};
    if (Object.keys(retiring).length > 0) state.retiring = retiring;
    const efforts = this.efforts(listed.filter((m) => m.kind === 'chat'));
    if (Object.keys(efforts).length > 0) state.efforts = efforts;
    if (this.error !== undefined) state.error = this.error;
    return state;
  }

  /** The reasoning effort levels of each chat model that has any (reasoningLevels.ts). */
  private efforts(models: readonly CatalogModel[]): Record<string, string[]> {
    const setting = this.settingLevels() ?? DEFAULT_EFFORT_LEVELS;
    const out: Record<string, string[]> = {};
    for (const model of models) {
      const { levels } = effortLevelsOf(model.raw, setting);
      if (levels.length > 0) out[model.id] = [...levels];
    }
    return out;
  }

  /** The model's context window when the gateway's model list gives one. */
  contextWindow(model: string): number | undefined {
    const raw = this.catalog.current?.models.find((m) => m.id === model)?.raw;
    return raw ? contextWindowOf(raw) : undefined;
  }

  /** Whether the model can see an attached image, as its list entry says; undefined when it says nothing or it is not listed. */
  seesImages(model: string): boolean | undefined {
    const raw = this.catalog.current?.models.find((m) => m.id === model)?.raw;
    return raw ? seesImages(raw) : undefined;
  }

  /** Whether the catalog holds a list (fresh or not) for the current gateway. */
  get known(): boolean {
    return this.catalog.current !== undefined;
  }

  /** Asks the catalog for the list (its cached one unless `force`). */
  async refresh(options: LoadOptions = {}): Promise<ModelsState> {
    this.loads++;
    this.changed.fire(this.state);
    try {
      const snapshot = await this.catalog.load(options);
      this.error = snapshot ? undefined : NOT_CONFIGURED;
    } catch (error) {
      this.error = this.describeError(error);
    } finally {
      this.loads--;
    }
    const state = this.state;
    this.changed.fire(state);
    return state;
  }

  /** The chat models, asking the gateway once when no list is known yet. */
  async models(): Promise<string[]> {
    return (this.known ? this.state : await this.refresh()).models;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.dropped.dispose();
  }
}

/** One ChatModelList per profile (by id), each over that profile's catalog; their news says whose list it is. */
export class ChatModelLists implements Disposable {
  private readonly lists = new Map<string, ChatModelList>();
  private readonly subscriptions: Disposable[] = [];
  private readonly changed = new Emitter<{ profile: string; state: ModelsState }>();
  /** A profile's list, loading flag or error changed. */
  readonly onDidChange: Event<{ profile: string; state: ModelsState }> = this.changed.event;
  private readonly dropped = new Emitter<string>();
  /** A profile's catalog dropped its list (its gateway or key changed). */
  readonly onDidDrop: Event<string> = this.dropped.event;

  constructor(private readonly create: (profile: string) => ChatModelList) {}

  for(profile: string): ChatModelList {
    let list = this.lists.get(profile);
    if (!list) {
      const created = this.create(profile);
      this.subscriptions.push(
        created,
        created.onDidChange((state) => this.changed.fire({ profile, state })),
        created.onDidDrop(() => this.dropped.fire(profile)),
      );
      this.lists.set(profile, (list = created));
    }
    return list;
  }

  dispose(): void {
    for (const d of [...this.subscriptions, this.changed, this.dropped]) d.dispose();
    this.lists.clear();
  }
}
