// A chat's instruction files (AGENTS.md and the like) after its panel closed: a read still in flight tells nobody,
// since posting to a closed page throws ("Webview is disposed") into a promise nobody waits on.
import * as assert from 'node:assert/strict';
import { PanelInstructions } from '../../../src/chat/vscode/instructionFiles';
import type { InstructionsState } from '../../../src/chatProtocol/messages';

describe('chat instruction files', () => {
  it('posts nothing once disposed, when a read was in flight as the panel closed', async () => {
    const posted: InstructionsState[] = [];
    const instructions = new PanelInstructions({ post: (state) => posted.push(state), pending: () => [], turns: () => [], editor: () => undefined, ui: { showEditor: () => Promise.reject(new Error('no editor in this test')) } });
    const reading = instructions.refresh();
    instructions.dispose();
    await reading;
    assert.deepEqual(posted, []);
  });
});
