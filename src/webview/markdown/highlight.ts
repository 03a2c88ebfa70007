import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import lua from 'highlight.js/lib/languages/lua';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import plaintext from 'highlight.js/lib/languages/plaintext';
import powershell from 'highlight.js/lib/languages/powershell';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const languages = {
  bash, c, cpp, csharp, css, diff, dockerfile, go, ini, java, javascript, json, kotlin, lua, makefile, markdown,
  php, plaintext, powershell, python, ruby, rust, scss, shell, sql, swift, typescript, xml, yaml,
};
for (const [name, definition] of Object.entries(languages)) hljs.registerLanguage(name, definition);

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (ch) => HTML_ESCAPES[ch]);
}

export function isKnownLanguage(lang: string): boolean {
  return lang !== '' && hljs.getLanguage(lang) !== undefined;
}

/**
 * Highlights code into one HTML string per line, each line with balanced spans (a span crossing a line break is closed
 * and reopened), so a code block that grows line by line can add lines to the DOM without redoing the earlier ones.
 * Memoised for the last few inputs: an open block is highlighted again only when a new line completes.
 */
export class CodeHighlighter {
  private readonly memo = new Map<string, string[]>();

  constructor(private readonly memoSize = 24) {}

  lines(code: string, lang: string): string[] {
    if (code === '') return [];
    const key = lang.toLowerCase() + '\u0000' + code;
    const cached = this.memo.get(key);
    if (cached !== undefined) {
      this.memo.delete(key);
      this.memo.set(key, cached);
      return cached;
    }
    const lines = splitHighlightedLines(highlight(code, lang));
    this.memo.set(key, lines);
    if (this.memo.size > this.memoSize) this.memo.delete(this.memo.keys().next().value as string);
    return lines;
  }
}

function highlight(code: string, lang: string): string {
  if (!isKnownLanguage(lang)) return escapeHtml(code);
  try {
    return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
  } catch {
    return escapeHtml(code);
  }
}

const SPAN_OR_NEWLINE = /<span[^>]*>|<\/span>|\n/g;

/** Splits highlight.js output (spans and escaped text only) at line breaks; every line keeps its trailing `\n`. */
export function splitHighlightedLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  let last = 0;
  for (const match of html.matchAll(SPAN_OR_NEWLINE)) {
    line += html.slice(last, match.index);
    last = match.index + match[0].length;
    if (match[0] === '\n') {
      lines.push(line + '</span>'.repeat(open.length) + '\n');
      line = open.join('');
    } else {
      if (match[0] === '</span>') open.pop();
      else open.push(match[0]);
      line += match[0];
    }
  }
  line += html.slice(last);
  if (line.replace(/<[^>]*>/g, '') !== '') lines.push(line + '</span>'.repeat(open.length));
  return lines;
}
