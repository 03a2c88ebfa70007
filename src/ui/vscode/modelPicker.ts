// UI adapter: the model picker of the generation commands (video, image, speech): it opens at once with the
// default model and fills with the gateway's list while it is open.
import * as vscode from 'vscode';
import { modelPickItems, type ModelChoices } from '../core/modelPickItems';

export type { ModelChoices };

/**
 * Offers `defaultModel` (if any) at once and the gateway's list when `choices` arrives (the caller turns a failed
 * load into choices that say so); choosing before it does just stops listening. Resolves with the id, 'other' for
 * "Other model id…", or undefined when dismissed.
 */
export async function pickModelId(title: string, defaultModel: string | undefined, choices: Promise<ModelChoices>): Promise<string | 'other' | undefined> {
  type Item = vscode.QuickPickItem & { other?: true };
  const other: Item = { label: '$(edit) Other model id…', other: true, alwaysShow: true };
  const itemsFor = (ids: string[], marks?: ModelChoices['marks']): Item[] => [...modelPickItems(ids, defaultModel, marks), other];
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = title;
  pick.placeholder = 'Loading the gateway’s models…';
  pick.ignoreFocusOut = true;
  pick.busy = true;
  pick.items = itemsFor(defaultModel === undefined ? [] : [defaultModel]);
  pick.activeItems = [pick.items[0]];
  let open = true;
  void choices.then((loaded) => {
    if (!open) return;
    pick.items = itemsFor(loaded.ids, loaded.marks);
    pick.activeItems = [pick.items[0]];
    pick.placeholder = loaded.placeholder;
    pick.busy = false;
  });
  const chosen = await new Promise<Item | undefined>((resolve) => {
    pick.onDidAccept(() => {
      resolve(pick.selectedItems[0] ?? pick.activeItems[0]);
      pick.hide();
    });
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  open = false;
  pick.dispose();
  if (!chosen) return undefined;
  return chosen.other ? 'other' : chosen.label;
}
