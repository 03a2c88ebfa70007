// Plain-text building blocks for the Markdown the chat produces: fenced code that cannot be broken out of,
// the prompt for "Ask About Selection", and the session export.
import { fenced } from './fence';
export { fenced, fenceFor } from './fence';
import { attachmentsMarkdown } from './contextPrompt';
import { thinkingSummary } from '../../chatProtocol/thinking';
import { NEWER_TURN_TEXT, oldestTurnsText, prettyJson, sessionUsage, type AssistantTurn, type ChatSession, type MediaTurn, type TokenUsage } from '../../chatProtocol/session';

export interface Selection {
  text: string;
  /** VS Code's language id, e.g. `typescript`. */
  languageId: string;
  /** Workspace-relative path or the untitled name. */
  fileName: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
}

/** The draft "Ask About Selection" puts in the chat input: where the code is from, then the code. */
export function selectionPrompt(selection: Selection): string {
  const lines = selection.startLine === selection.endLine ? `line ${selection.startLine}` : `lines ${selection.startLine}–${selection.endLine}`;
  const language = /^[\w.+#-]+$/.test(selection.languageId) ? selection.languageId : '';
  return `From \`${selection.fileName.replace(/`/g, "'")}\` (${lines}, ${language || 'plain text'}):\n\n${fenced(selection.text, language)}\n\n`;
}

function usageText(usage: TokenUsage): string {
  return `${usage.prompt} prompt + ${usage.completion} completion = ${usage.total} tokens`;
}

function quote(text: string): string {
  return text.split('\n').map((line) => (line === '' ? '>' : `> ${line}`)).join('\n');
}

function assistantSection(turn: AssistantTurn): string {
  const parts: string[] = [`## Assistant${turn.model ? ` (${turn.model})` : ''}`];
  if (turn.omittedTurns) parts.push(`_Sent without ${oldestTurnsText(turn.omittedTurns)} of the chat (they did not fit the model's context window)._`);
  if (turn.reasoning) parts.push(`<details><summary>${thinkingSummary(turn)}</summary>\n\n${turn.reasoning}\n\n</details>`);
  if (turn.content) parts.push(turn.content);
  if (turn.refusal) parts.push(`**Refused:** ${turn.refusal}`);
  for (const call of turn.toolCalls) parts.push(`**Tool call** \`${call.name || 'unnamed'}\`\n\n${fenced(prettyJson(call.arguments), 'json')}`);
  if (turn.status === 'stopped') parts.push('_Stopped before the reply was complete._');
  if (turn.status === 'interrupted') parts.push(`_Interrupted: ${turn.error?.message ?? 'the reply was cut off.'}_`);
  if (turn.status === 'failed') parts.push(`_Failed: ${turn.error?.message ?? 'no reply.'}_`);
  if (turn.status === 'streaming') parts.push('_Still streaming when exported._');
  if (turn.usage) parts.push(`_${usageText(turn.usage)}_`);
  return parts.join('\n\n');
}

/** A link target that cannot break out of Markdown's `(…)`. */
function linkTarget(link: string): string {
  return `<${link.replace(/[<>\s]/g, (c) => encodeURIComponent(c))}>`;
}

function linkLabel(text: string): string {
  return text.replace(/[\[\]\\`*_<>]/g, (c) => `\\${c}`).replace(/\s+/g, ' ').slice(0, 120);
}

/** A media turn: what was typed, then a link to the media (the kept file, else the gateway's link). */
function mediaSection(turn: MediaTurn, link: string | undefined): string {
  const parts: string[] = [`## You\n\n${turn.content}`];
  const what = turn.kind === 'image' ? 'Image' : turn.kind === 'video' ? 'Video' : 'Speech';
  const label = linkLabel(`${what}${turn.model ? ` (${turn.model})` : ''}: ${turn.prompt}`);
  if (turn.state === 'complete' && link) parts.push(`${turn.kind === 'image' ? '!' : ''}[${label}](${linkTarget(link)})`);
  else if (turn.state === 'complete') parts.push(`_${what}: no longer available._`);
  else if (turn.state === 'pending') parts.push(`_${what}: ${turn.detail ?? 'not finished'} when exported._`);
  else parts.push(`_${what} failed: ${turn.detail ?? 'no result.'}_`);
  return parts.join('\n\n');
}

/** `mediaLink` gives a media turn's link (the kept file); without it, the gateway's link is used. */
export function sessionMarkdown(session: ChatSession, exportedAt: Date, mediaLink: (turn: MediaTurn) => string | undefined = (turn) => turn.url): string {
  const parts: string[] = [`# ${session.title}`];
  const s = session.settings;
  const facts = [`Exported ${exportedAt.toISOString()}`];
  if (s.model) facts.push(`model ${s.model}`);
  if (s.sampling.mode !== 'default') facts.push(`${s.sampling.mode} ${s.sampling.value}`);
  if (s.maxTokens !== null) facts.push(`max_tokens ${s.maxTokens}`);
  if (s.stop.length > 0) facts.push(`stop ${s.stop.map((x) => JSON.stringify(x)).join(', ')}`);
  if (s.jsonMode) facts.push('JSON mode');
  parts.push(`_${facts.join(' · ')}_`);
  if (s.systemPrompt.trim()) parts.push(`**System prompt**\n\n${quote(s.systemPrompt)}`);
  for (const turn of session.turns) {
    if (turn.role === 'media') parts.push(mediaSection(turn, mediaLink(turn)));
    else if (turn.role === 'newer') parts.push(`_${NEWER_TURN_TEXT}; this version cannot show it._`);
    else parts.push(turn.role === 'user' ? `## You\n\n${turn.content}${attachmentsMarkdown(turn.attachments ?? [])}` : assistantSection(turn));
  }
  const total = sessionUsage(session);
  if (total.total > 0) parts.push(`---\n\n_Session: ${usageText(total)}_`);
  return `${parts.join('\n\n')}\n`;
}
