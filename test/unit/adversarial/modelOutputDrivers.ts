// What the model-output hang tests run inside a worker (test/util/inWorker.ts): each feeds a reply's text to one
// parser of model output and returns a small summary.

import { cleanTitle } from '../../../src/chat/core/historyModel';
import { spokenText } from '../../../src/chat/core/hub/spokenText';
import { prettyJson } from '../../../src/chatProtocol/session';
import { fenced, sessionMarkdown } from '../../../src/chat/core/markdownText';
import { defaultSettings, emptyAssistantTurn } from '../../../src/chatProtocol/session';
import { toLmToolCalls } from '../../../src/models/core/lmRequestMapping';
import { lineStarts, stableLineCount } from '../../../src/webview/markdown/commitPlanner';
import { MarkdownRenderer, type ReferenceTable } from '../../../src/webview/markdown/markdownRenderer';

export function speak(text: string): number {
  return spokenText(text).length;
}

export function title(text: string): string {
  return cleanTitle(text) ?? '(none)';
}

/** The chat page's renderer: the whole reply at once, then as a stream sees it (parse, blocks, what is final). */
export function renderReply(text: string): { htmlChars: number; blocks: number; stableLines: number } {
  const renderer = new MarkdownRenderer();
  const htmlChars = renderer.renderDocument(text).length;
  const parsed = renderer.parse(text, Object.create(null) as ReferenceTable, true);
  for (const block of parsed.blocks) renderer.renderBlock(block, parsed.env);
  return { htmlChars, blocks: parsed.blocks.length, stableLines: stableLineCount(parsed, text, lineStarts(text)) };
}

export function fence(code: string): number {
  return fenced(code).length + prettyJson(code).length;
}

export function toolCallInput(args: string): string {
  try {
    return JSON.stringify(toLmToolCalls([{ id: 'c', type: 'function', name: 'f', arguments: args }])[0].input).slice(0, 100);
  } catch (error) {
    return (error as Error).message;
  }
}

/** A chat exported to Markdown whose reply, reasoning, tool call and title are `text`. */
export function exportChat(text: string): number {
  const reply = { ...emptyAssistantTurn('a', text.slice(0, 100), 0), content: text, reasoning: text, status: 'complete' as const, toolCalls: [{ id: 'x', name: 'f', arguments: text }] };
  const session = { id: 's', title: text, createdAt: 0, updatedAt: 0, settings: defaultSettings(), turns: [{ id: 'u', role: 'user' as const, createdAt: 0, content: 'Hi' }, reply] };
  return sessionMarkdown(session, new Date(0)).length;
}
