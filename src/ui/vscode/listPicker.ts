// UI adapter: a list in groups that opens at once, busy until its rows arrive, with a Refresh button and buttons on
// each row (List Models). The caller says what the rows are and what choosing one does; this owns the quick pick.
import * as vscode from 'vscode';

/** One row: chosen by `id`; each of its buttons is an action (`id`, tooltip `title`, codicon `icon`). */
export interface BrowseRow {
  id: string;
  label: string;
  description?: string;
  detail?: string;
  actions: ReadonlyArray<{ id: string; title: string; icon: string }>;
}

/** What a load shows: rows under group titles, the line above them, and the value the caller wants back. */
export interface BrowseList<T> {
  groups: ReadonlyArray<{ title: string; rows: readonly BrowseRow[] }>;
  placeholder: string;
  value: T;
}

export interface BrowseOptions {
  title: string;
  /** The line above the list until the first load answers ("Loading models…"). */
  loading: string;
}

type Item = vscode.QuickPickItem & { row?: string };
type ActionButton = vscode.QuickInputButton & { action: string };

/** See UserInterface.browse. `load` words its own failures and answers undefined for them. */
export async function browseList<T>({ title, loading }: BrowseOptions, load: (force: boolean) => Promise<BrowseList<T> | undefined>, choose: (row: string, action?: string) => void): Promise<T | undefined> {
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = title;
  pick.placeholder = loading;
  pick.matchOnDetail = true;
  pick.busy = true;
  const refresh: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('refresh'), tooltip: 'Refresh' };
  pick.buttons = [refresh];
  let open = true;
  pick.onDidHide(() => {
    open = false;
    pick.dispose();
  });
  const fill = async (force: boolean): Promise<T | undefined> => {
    pick.busy = true;
    try {
      const list = await load(force);
      if (!open) return undefined;
      if (!list) {
        pick.hide();
        return undefined;
      }
      pick.items = toItems(list.groups);
      pick.placeholder = list.placeholder;
      return list.value;
    } finally {
      if (open) pick.busy = false;
    }
  };
  pick.onDidTriggerButton((button) => button === refresh && void fill(true));
  pick.onDidTriggerItemButton(({ item, button }) => {
    if (!item.row) return;
    pick.hide();
    choose(item.row, (button as ActionButton).action);
  });
  pick.onDidAccept(() => {
    const row = pick.selectedItems[0]?.row;
    if (!row) return;
    pick.hide();
    choose(row);
  });
  pick.show();
  return fill(false);
}

function toItems(groups: BrowseList<unknown>['groups']): Item[] {
  const items: Item[] = [];
  for (const group of groups) {
    items.push({ label: group.title, kind: vscode.QuickPickItemKind.Separator });
    for (const row of group.rows) {
      items.push({
        label: row.label,
        description: row.description,
        detail: row.detail,
        row: row.id,
        buttons: row.actions.map((action): ActionButton => ({ action: action.id, iconPath: new vscode.ThemeIcon(action.icon), tooltip: action.title })),
      });
    }
  }
  return items;
}
