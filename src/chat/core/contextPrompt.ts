// How attached context goes to the model: each text attachment as a fenced block headed by its path, line range
// and language, before the user's words; images as `image_url` content parts with a data URL.
import { lineRange, type Attachment, type ImageAttachment, type TextAttachment } from '../../chatProtocol/attachments';
import type { UserTurn } from '../../chatProtocol/session';
import type { ContentPart } from '../../gateway/types';
import { fenced } from './fence';

function heading(attachment: TextAttachment): string {
  const path = `\`${attachment.path.replace(/`/g, "'")}\``;
  const range = lineRange(attachment.startLine, attachment.endLine);
  const trimmed = attachment.endLine - attachment.startLine + 1 < attachment.totalLines ? `, trimmed from ${attachment.totalLines} lines` : '';
  const language = attachment.language || 'plain text';
  if (attachment.source === 'problems') return `Problems reported in ${path}:`;
  return `${attachment.source === 'selection' ? 'Selection from' : 'File'} ${path} (${range}${trimmed}, ${language}):`;
}

export function fencedAttachment(attachment: TextAttachment): string {
  return `${heading(attachment)}\n\n${fenced(attachment.text, attachment.source === 'problems' ? '' : attachment.language)}`;
}

/** The user's message with its text attachments in front. */
export function textWithContext(text: string, attachments: readonly Attachment[]): string {
  const blocks = attachments.filter((a): a is TextAttachment => a.kind === 'text').map(fencedAttachment);
  return blocks.length === 0 ? text : `${blocks.join('\n\n')}\n\n${text}`;
}

export function imageDataUrl(image: Pick<ImageAttachment, 'mimeType' | 'data'>): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

/** A user turn's message content: plain text, or text then images as content parts. */
export function userContent(turn: Pick<UserTurn, 'content' | 'attachments'>): string | ContentPart[] {
  const attachments = turn.attachments ?? [];
  const text = textWithContext(turn.content, attachments);
  const images = attachments.filter((a): a is ImageAttachment => a.kind === 'image');
  if (images.length === 0) return text;
  return [{ type: 'text', text }, ...images.map((image): ContentPart => ({ type: 'image_url', image_url: { url: imageDataUrl(image) } }))];
}

export function hasImages(turn: Pick<UserTurn, 'attachments'> | undefined): boolean {
  return (turn?.attachments ?? []).some((a) => a.kind === 'image');
}

/** The attachments of a user turn in an export: each text block as sent, each image inline. */
export function attachmentsMarkdown(attachments: readonly Attachment[]): string {
  if (attachments.length === 0) return '';
  const parts = attachments.map((a) => (a.kind === 'text' ? fencedAttachment(a) : a.kind === 'image' ? `![${a.name.replace(/[[\]]/g, '')}](${imageDataUrl(a)})` : `(audio: ${a.name.replace(/[[\]]/g, '')})`));
  return `\n\n<details><summary>Attached context (${attachments.length})</summary>\n\n${parts.join('\n\n')}\n\n</details>`;
}
