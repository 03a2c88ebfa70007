// One home per concept, for helpers that were written twice: each is checked to have one definition in src/, so a
// second copy is noticed where it is written.
import * as assert from 'node:assert/strict';
import { loadSources } from './layering';

describe('one home for each helper that had a twin', () => {
  const files = loadSources();
  const where = (pattern: RegExp): string[] => files.filter((f) => pattern.test(f.text)).map((f) => f.path);

  it('prettyJson (the chat and its export show a tool call the same way): chatProtocol/session.ts', () => {
    assert.deepEqual(where(/function prettyJson\b/), ['chatProtocol/session.ts']);
  });

  it('whether a process runs (locks and video job owners): util/storeFileSystem.ts', () => {
    assert.deepEqual(where(/process\.kill\(/), ['util/storeFileSystem.ts']);
  });

  it('the context sources the Add Context menu and `#` offer: chatProtocol/contextChoices.ts', () => {
    assert.deepEqual(where(/Lines N–M of that file|'Lines of a file…'/), ['chatProtocol/contextChoices.ts']);
  });

  it("a chat answer's reply fields (ChatResult and a streamed ChoiceSnapshot): gateway/types.ts's ChatReply", () => {
    assert.deepEqual(where(/\n\s+refusal: string;/).filter((p) => p.startsWith('gateway/')), ['gateway/types.ts']);
  });

  it('the fake clock is a test tool: it lives in test/util/, not in src/', () => {
    assert.deepEqual(where(/class FakeClock\b/), []);
  });
});
