// .gitignore rules for the workspace file picker: the common forms (names, globs with * ? **, anchored and
// directory-only patterns, negation, comments), applied from the folder each .gitignore sits in; the last
// matching rule wins. Enough to keep node_modules, build output and the like out of the picker.

interface Rule {
  /** Folder of the .gitignore, relative to the workspace folder ('' for the root), without a trailing slash. */
  base: string;
  regex: RegExp;
  negate: boolean;
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      out += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) out += '\\[';
      else {
        out += `[${glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return out;
}

export function parseRule(line: string, base: string): Rule | undefined {
  let text = line.replace(/(?<!\\)\s+$/, '');
  if (text === '' || text.startsWith('#')) return undefined;
  const negate = text.startsWith('!');
  if (negate) text = text.slice(1);
  text = text.replace(/^\\([#!])/, '$1');
  const dirOnly = text.endsWith('/');
  if (dirOnly) text = text.slice(0, -1);
  const anchored = text.includes('/');
  text = text.replace(/^\//, '');
  if (text === '') return undefined;
  const body = globToRegex(text);
  const tail = dirOnly ? '/.*' : '(?:/.*)?';
  return { base, regex: new RegExp(`^${anchored ? '' : '(?:.*/)?'}${body}${tail}$`), negate };
}

export class IgnoreRules {
  private readonly rules: Rule[] = [];

  /** Adds the lines of one .gitignore found in `base` (relative to the workspace folder). Deeper files go last. */
  add(base: string, content: string): void {
    const folder = base.replace(/^\/+|\/+$/g, '');
    for (const line of content.split(/\r?\n/)) {
      const rule = parseRule(line, folder);
      if (rule) this.rules.push(rule);
    }
  }

  /** Whether a file (path relative to the workspace folder, '/'-separated) is ignored. */
  ignores(path: string): boolean {
    let ignored = false;
    for (const rule of this.rules) {
      if (rule.base !== '' && !path.startsWith(`${rule.base}/`)) continue;
      const rel = rule.base === '' ? path : path.slice(rule.base.length + 1);
      if (rule.regex.test(rel)) ignored = !rule.negate;
    }
    return ignored;
  }
}
