// An input box whose Enter always takes what was typed. VS Code's showInputBox checks the text asynchronously and
// ignores an Enter that arrives before the check of the latest text has come back, so a key pasted and entered at
// once was dropped. Here the check runs on Enter itself, synchronously: valid text is taken at once, and invalid
// text keeps the box open with the reason.

/** The part of a vscode.InputBox this needs (a fake in the unit tests). */
export interface AcceptingBox {
  value: string;
  validationMessage: string | object | undefined;
  onDidAccept(listener: () => void): { dispose(): void };
  onDidChangeValue(listener: (value: string) => void): { dispose(): void };
  onDidHide(listener: () => void): { dispose(): void };
  show(): void;
  hide(): void;
  dispose(): void;
}

/** Shows the box; resolves with the text when Enter is pressed on text `problem` accepts, undefined when dismissed. */
export function acceptOnEnter(box: AcceptingBox, problem: (text: string) => string | undefined): Promise<string | undefined> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (value: string | undefined) => {
      if (done) return;
      done = true;
      for (const subscription of subscriptions) subscription.dispose();
      resolve(value);
      box.hide();
      box.dispose();
    };
    const subscriptions = [
      // Shown as the text changes (the box's own hint), but never what decides an Enter.
      box.onDidChangeValue((value) => (box.validationMessage = value === '' ? undefined : problem(value))),
      box.onDidAccept(() => {
        const value = box.value;
        const reason = problem(value);
        if (reason === undefined) finish(value);
        else box.validationMessage = reason;
      }),
      box.onDidHide(() => finish(undefined)),
    ];
    box.show();
  });
}
