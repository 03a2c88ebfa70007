// Fenced code that cannot be broken out of, for everything the chat writes as Markdown.

/** A backtick fence longer than any backtick run inside `code`, so the code cannot close it early. */
export function fenceFor(code: string): string {
  let longest = 0;
  for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

export function fenced(code: string, language = ''): string {
  const fence = fenceFor(code);
  const body = code.endsWith('\n') ? code : `${code}\n`;
  return `${fence}${language}\n${body}${fence}`;
}
