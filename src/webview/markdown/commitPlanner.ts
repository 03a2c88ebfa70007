import type { ParsedBlock, ParsedText } from './markdownRenderer';

/** Start offset of every line of a text made of complete lines, plus its length as the final entry. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  if (starts[starts.length - 1] !== text.length) starts.push(text.length);
  return starts;
}

/**
 * How many leading lines of `text` (complete lines only) can no longer change, whatever text follows.
 *
 * CommonMark decides line by line whether a block goes on, so a top-level block followed by another one is final. The
 * last block is final only when nothing can extend it: a heading or rule, a closed fence, or a paragraph, table or
 * quote followed by a blank line. Lists and indented code are never final as the last block (a later line may extend
 * them, or make a list loose). A link definition right before the boundary may still grow a title on the next line,
 * so the boundary moves back above it.
 */
export function stableLineCount(parsed: ParsedText, text: string, starts: number[]): number {
  const { blocks, definitions } = parsed;
  if (blocks.length === 0) return 0;
  const lineCount = starts.length - 1;
  const lineAt = (line: number) => text.slice(starts[line], starts[line + 1]).replace(/\n$/, '');
  const last = blocks[blocks.length - 1];
  let boundary = isFinalBlock(last, lineCount, lineAt) ? last.endLine : last.startLine;
  for (let moved = true; moved; ) {
    moved = false;
    for (const definition of definitions) {
      if (definition.topLevel && definition.endLine === boundary && definition.startLine < boundary) {
        boundary = definition.startLine;
        moved = true;
      }
    }
    const straddling = blocks.find((block) => block.startLine < boundary && block.endLine > boundary);
    if (straddling) {
      boundary = straddling.startLine;
      moved = true;
    }
  }
  return boundary;
}

function isFinalBlock(block: ParsedBlock, lineCount: number, lineAt: (line: number) => string): boolean {
  switch (block.type) {
    case 'heading_open':
    case 'hr':
      return true;
    case 'fence':
      return isClosedFence(block, lineAt);
    case 'paragraph_open':
    case 'table_open':
    case 'blockquote_open':
      return block.endLine < lineCount && /^[ \t]*$/.test(lineAt(block.endLine));
    default:
      return false;
  }
}

function isClosedFence(block: ParsedBlock, lineAt: (line: number) => string): boolean {
  if (block.endLine - block.startLine < 2) return false;
  const marker = block.tokens[0].markup;
  const closing = lineAt(block.endLine - 1).match(/^ {0,3}(`{3,}|~{3,})[ \t]*$/);
  return closing !== null && closing[1][0] === marker[0] && closing[1].length >= marker.length;
}
