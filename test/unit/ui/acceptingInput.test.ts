import * as assert from 'node:assert/strict';
import { acceptOnEnter, type AcceptingBox } from '../../../src/ui/core/acceptingInput';

/** A box the test types into and presses Enter in, as a person does: nothing waits between the two. */
function fakeBox() {
  const listeners = { accept: [] as Array<() => void>, change: [] as Array<(v: string) => void>, hide: [] as Array<() => void> };
  const on = <T>(list: T[]) => (listener: T) => {
    list.push(listener);
    return { dispose: () => list.splice(list.indexOf(listener), 1) };
  };
  const box: AcceptingBox & { type(text: string): void; enter(): void; escape(): void; shown: boolean } = {
    value: '',
    validationMessage: undefined,
    shown: false,
    onDidAccept: on(listeners.accept),
    onDidChangeValue: on(listeners.change),
    onDidHide: on(listeners.hide),
    show: () => void (box.shown = true),
    hide: () => {
      if (!box.shown) return;
      box.shown = false;
      for (const l of [...listeners.hide]) l();
    },
    dispose: () => undefined,
    type(text) {
      box.value = text;
      for (const l of [...listeners.change]) l(text);
    },
    enter: () => [...listeners.accept].forEach((l) => l()),
    escape: () => box.hide(),
  };
  return box;
}

const problem = (text: string) => (text.trim() === '' ? 'Enter a key.' : undefined);

describe('an input box whose Enter always takes the text', () => {
  it('takes a key pasted and entered at once', async () => {
    const box = fakeBox();
    const answer = acceptOnEnter(box, problem);
    box.type('sk-pasted-123');
    box.enter();
    assert.equal(await answer, 'sk-pasted-123');
    assert.equal(box.shown, false);
  });

  it('keeps the box open with the reason when the text is refused, and takes it once fixed', async () => {
    const box = fakeBox();
    const answer = acceptOnEnter(box, problem);
    box.enter();
    assert.equal(box.validationMessage, 'Enter a key.');
    assert.equal(box.shown, true);
    box.type('sk-1');
    box.enter();
    assert.equal(await answer, 'sk-1');
  });

  it('resolves with nothing when dismissed', async () => {
    const box = fakeBox();
    const answer = acceptOnEnter(box, problem);
    box.type('sk-1');
    box.escape();
    assert.equal(await answer, undefined);
  });
});
