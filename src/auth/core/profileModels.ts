// "Default Models of …": the profile's default model per kind (chat, image, video, speech), asked kind by kind. A new
// chat, Generate Image, Generate Video and Synthesize Speech under the profile start with them.
import type { ModelKind, Profile } from '../../settings/profile';
import type { ProfileResult, ProfileStore } from './profileStore';

export const MODEL_KINDS: ReadonlyArray<[ModelKind, string]> = [['chat', 'Chat'], ['image', 'Image'], ['video', 'Video'], ['speech', 'Speech']];

/** The part of the user seam the menu needs (ui/vscode/userInterface.ts has it). */
export interface ModelsAsker {
  pickItem(items: ReadonlyArray<{ id: string; label: string; description?: string }>, options: { title?: string; placeHolder: string }): PromiseLike<string | undefined>;
  input(options: { title?: string; prompt: string; value?: string }): PromiseLike<string | undefined>;
  notify(kind: 'error', message: string): unknown;
}

/** Asks kind by kind until Escape; true when a model was changed. */
export async function editDefaultModels(start: Profile, store: Pick<ProfileStore, 'setModel'>, ui: ModelsAsker): Promise<boolean> {
  let profile: Profile | undefined = start;
  let changed = false;
  while (profile) {
    const current: Profile = profile;
    const items = MODEL_KINDS.map(([kind, label]) => ({ id: kind, label, description: current.models[kind] ?? '(the settings\' default)' }));
    const kind = (await ui.pickItem(items, { title: `Default models of "${current.name}"`, placeHolder: 'Choose a kind to set its model; Escape when done' })) as ModelKind | undefined;
    if (!kind) break;
    const label = MODEL_KINDS.find(([k]) => k === kind)![1];
    const model = await ui.input({ title: `${label} model of "${current.name}"`, prompt: 'A model id the gateway lists (List Models shows them). Leave empty to use the user settings\' default.', value: current.models[kind] ?? '' });
    if (model === undefined) continue;
    // Only this kind changes, over the list as stored now: another window's change to another kind (made while
    // this menu was open) stays.
    const result: ProfileResult = await store.setModel(current.id, kind, model);
    if (!result.ok) {
      void ui.notify('error', result.problem);
      return changed;
    }
    changed = true;
    profile = result.profile;
  }
  return changed;
}
