import * as assert from 'node:assert/strict';
import { pickDefaultModel } from '../../../src/chat/core/chatModels';
import { classifyModel } from '../../../src/models/core/modelKind';
import { fenced, fenceFor, selectionPrompt, sessionMarkdown } from '../../../src/chat/core/markdownText';
import { defaultSettings, emptyAssistantTurn, type ChatSession } from '../../../src/chatProtocol/session';

describe('chat markdown text', () => {
  it('fences code with more backticks than it contains', () => {
    assert.equal(fenceFor('plain'), '```');
    assert.equal(fenceFor('a ``` b'), '````');
    assert.equal(fenceFor('`````'), '``````');
    assert.equal(fenced('x', 'ts'), '```ts\nx\n```');
  });

  it('builds the Ask About Selection prompt with file, lines and language', () => {
    const text = selectionPrompt({ text: 'const a = 1;\n', languageId: 'typescript', fileName: 'src/a.ts', startLine: 3, endLine: 4 });
    assert.equal(text, 'From `src/a.ts` (lines 3–4, typescript):\n\n```typescript\nconst a = 1;\n```\n\n');
    const single = selectionPrompt({ text: 'x', languageId: 'weird lang!', fileName: 'Untitled-1', startLine: 7, endLine: 7 });
    assert.match(single, /^From `Untitled-1` \(line 7, plain text\):\n\n```\nx\n```/);
  });

  it('exports a session with settings, turns, statuses and usage', () => {
    const session: ChatSession = {
      id: 's',
      title: 'Sorting',
      createdAt: 0,
      updatedAt: 0,
      settings: { ...defaultSettings(), model: 'model-k3', systemPrompt: 'Be brief.\nReally.', sampling: { mode: 'top_p', value: 0.9 }, jsonMode: true },
      turns: [
        { id: 'u', role: 'user', createdAt: 0, content: 'How?' },
        { ...emptyAssistantTurn('a', 'model-k3', 0), content: 'Like this.', reasoning: 'Think.', status: 'complete', usage: { prompt: 3, completion: 4, total: 7 } },
        { ...emptyAssistantTurn('b', 'model-k3', 0), content: 'Half', status: 'interrupted', error: { message: 'Cut off.', kind: 'interrupted', actions: [] }, omittedTurns: 12 },
        { ...emptyAssistantTurn('c', 'model-k3', 0), status: 'complete', toolCalls: [{ id: 'x', name: 'lookup', arguments: '{"q":1}' }] },
      ],
    };
    const md = sessionMarkdown(session, new Date(Date.UTC(2025, 0, 2)));
    assert.match(md, /^# Sorting\n\n_Exported 2025-01-02T00:00:00.000Z · model model-k3 · top_p 0.9 · JSON mode_/);
    assert.match(md, /\*\*System prompt\*\*\n\n> Be brief\.\n> Really\./);
    assert.match(md, /## You\n\nHow\?/);
    assert.match(md, /## Assistant \(model-k3\)\n\n<details><summary>Reasoning<\/summary>\n\nThink\.\n\n<\/details>\n\nLike this\./);
    assert.match(md, /_3 prompt \+ 4 completion = 7 tokens_/);
    assert.match(md, /Half\n\n_Interrupted: Cut off\._/);
    assert.match(md, /## Assistant \(model-k3\)\n\n_Sent without the 12 oldest turns of the chat \(they did not fit the model's context window\)\._\n\nHalf/);
    assert.match(md, /\*\*Tool call\*\* `lookup`\n\n```json\n\{\n  "q": 1\n\}\n```/);
    assert.match(md, /_Session: 3 prompt \+ 4 completion = 7 tokens_\n$/);
  });

  it('keeps only chat models and picks the default', () => {
    const ids = ['model-k3', 'model-5.2', 'model-1.0-video-edit', 'text-embedding-3', 'tts-1', 'gpt-image-1'].filter((id) => classifyModel({ id, object: 'model' }) === 'chat');
    assert.deepEqual(ids, ['model-k3', 'model-5.2']);
    assert.equal(pickDefaultModel(undefined, ids), 'model-k3');
    assert.equal(pickDefaultModel('model-5.2', ids), 'model-5.2');
    assert.equal(pickDefaultModel(undefined, []), undefined);
  });
});
