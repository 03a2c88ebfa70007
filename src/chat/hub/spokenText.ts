// The text of a reply as it is read aloud: the words, without the Markdown around them, cut to what the speech
// endpoint takes.
const MAX_SPOKEN = 4096;

export function spokenText(markdown: string): string {
  const text = markdown
    .replace(/```[\s\S]*?(```|$)/g, ' (code) ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/(\*\*|__|\*|_|~~)(\S(?:[\s\S]*?\S)?)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= MAX_SPOKEN) return text;
  const cut = text.slice(0, MAX_SPOKEN);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return end > MAX_SPOKEN / 2 ? cut.slice(0, end + 1) : cut;
}
