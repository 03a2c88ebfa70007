// What the generation commands' model picker (ui/vscode/modelPicker.ts) shows of each model: its id, and beside it
// "default" and the model's retirement mark (models/core's retiringMarks), so nobody picks a model the week it goes.
// Pure.

/** The models to offer, and what the picker says about them. */
export interface ModelChoices {
  ids: string[];
  placeholder: string;
  /** The retiring models' marks by id ("retires 2026-12-01 (in 3 days)"), shown beside their ids. */
  marks?: Readonly<Record<string, string>>;
}

/** The picker's rows for `ids`: the id as the label; "default" and the retirement mark (with a warning icon) as the description. */
export function modelPickItems(ids: readonly string[], defaultModel: string | undefined, marks: Readonly<Record<string, string>> = {}): Array<{ label: string; description?: string }> {
  return ids.map((id) => {
    const mark = Object.prototype.hasOwnProperty.call(marks, id) ? marks[id] : undefined;
    const description = [id === defaultModel ? 'default' : '', mark ? `$(warning) ${mark}` : ''].filter(Boolean).join(' · ');
    return description ? { label: id, description } : { label: id };
  });
}
