// The chat settings' models for /image, /video and /speak: one choice per kind, "Default" (the configured model, else
// the first the gateway lists of that kind) or a listed model.
import type { MediaModelLists } from '../../chatProtocol/messages';
import type { MediaKind, MediaModels } from '../../chatProtocol/session';
import { MEDIA_KINDS } from '../../chatProtocol/mediaTurn';
import { el } from './dom';

/** A model's id in a picker, with its retirement mark when it retires soon ("dall-e-3 — retires 2026-12-01 (in 3 days)"). */
export function markedModel(id: string, retiring: Readonly<Record<string, string>> | undefined): string {
  const mark = retiring && Object.prototype.hasOwnProperty.call(retiring, id) ? retiring[id] : undefined;
  return mark ? `${id} — ${mark}` : id;
}

const LABELS: Record<MediaKind, string> = { image: '/image model', video: '/video model', speech: '/speak model' };

export class MediaModelsView {
  readonly root: HTMLElement;
  private readonly selects: Record<MediaKind, HTMLSelectElement>;
  private current: MediaModels = { image: '', video: '', speech: '' };
  private lists: MediaModelLists = { image: [], video: [], speech: [] };
  private retiring: Record<string, string> | undefined;

  constructor(onChange: () => void) {
    const select = (kind: MediaKind) => {
      const node = el('select', { class: 'media-model-select', attrs: { id: `media-model-${kind}`, 'data-kind': kind } });
      node.addEventListener('change', onChange);
      return node;
    };
    this.selects = { image: select('image'), video: select('video'), speech: select('speech') };
    this.root = el(
      'fieldset',
      { class: 'media-models' },
      el('legend', { text: 'Slash command models' }),
      ...MEDIA_KINDS.map((kind) => el('div', { class: 'field' }, el('label', { text: LABELS[kind], attrs: { for: this.selects[kind].id } }), this.selects[kind])),
    );
  }

  set(models: MediaModels): void {
    this.current = { ...models };
    this.render();
  }

  setLists(lists: MediaModelLists | undefined, retiring?: Record<string, string>): void {
    this.lists = lists ?? { image: [], video: [], speech: [] };
    this.retiring = retiring;
    this.render();
  }

  value(): MediaModels {
    return { image: this.selects.image.value, video: this.selects.video.value, speech: this.selects.speech.value };
  }

  private render(): void {
    for (const kind of MEDIA_KINDS) {
      const chosen = this.current[kind];
      const ids = [...this.lists[kind]];
      if (chosen && !ids.includes(chosen)) ids.unshift(chosen);
      const first = this.lists[kind][0];
      const fallback = el('option', { text: first ? `Default (${first} unless set in Settings)` : 'Default (from Settings)', attrs: { value: '' } });
      this.selects[kind].replaceChildren(fallback, ...ids.map((id) => el('option', { text: markedModel(id, this.retiring), attrs: { value: id } })));
      this.selects[kind].value = chosen;
    }
  }
}
