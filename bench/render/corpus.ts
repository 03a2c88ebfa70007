// A deterministic ~200 KB assistant reply: prose with emphasis, links and inline code, nested lists, tables, quotes
// and 30 fenced code blocks in ten languages. Same seed, same text.
import type { WireTurn } from '../../src/chatProtocol/messages';
import { seededRandom } from '../../test/browser/harness';

const WORDS = (
  'the gateway model request stream token response client server cache retry backoff latency budget chunk buffer ' +
  'render frame layout parser block inline link table list quote fence language highlight theme panel webview ' +
  'extension command setting secret proxy header status error timeout signal abort queue worker job video poll ' +
  'we you it can should will might usually often then because so which while when after before every each most'
).split(' ');

const CODE: Record<string, (i: number) => string> = {
  ts: (i) => `export async function handler${i}(request: Request): Promise<Response> {\n  const body = await request.json() as { id: string; count: number };\n  if (body.count > ${i}) {\n    return new Response(JSON.stringify({ ok: false, reason: \`too many: \${body.count}\` }), { status: 400 });\n  }\n  // keep the cache warm\n  cache.set(body.id, { seenAt: Date.now(), count: body.count + ${i} });\n  return new Response(null, { status: 204 });\n}`,
  python: (i) => `def process_${i}(items: list[dict]) -> dict:\n    """Group items by kind and count them."""\n    counts: dict[str, int] = {}\n    for item in items:\n        kind = item.get("kind", "unknown")\n        counts[kind] = counts.get(kind, 0) + ${i}\n    return {"total": sum(counts.values()), "by_kind": counts}`,
  bash: (i) => `#!/usr/bin/env bash\nset -euo pipefail\nfor file in ./logs/*.log; do\n  if grep -q "ERROR ${i}" "$file"; then\n    echo "found in $file" >&2\n  fi\ndone\ncurl -sS -H "Authorization: Bearer $TOKEN" "https://api.example.com/v1/jobs/${i}" | jq '.status'`,
  json: (i) => `{\n  "model": "text-large-${i}",\n  "stream": true,\n  "temperature": 0.${i % 10},\n  "messages": [\n    { "role": "system", "content": "You are helpful." },\n    { "role": "user", "content": "Explain item ${i}" }\n  ],\n  "max_tokens": ${256 + i}\n}`,
  go: (i) => `package main\n\nimport (\n\t"fmt"\n\t"net/http"\n)\n\nfunc handler${i}(w http.ResponseWriter, r *http.Request) {\n\tname := r.URL.Query().Get("name")\n\tif name == "" {\n\t\thttp.Error(w, "missing name", http.StatusBadRequest)\n\t\treturn\n\t}\n\tfmt.Fprintf(w, "hello %s #%d", name, ${i})\n}`,
  rust: (i) => `use std::collections::HashMap;\n\nfn tally_${i}(words: &[&str]) -> HashMap<String, usize> {\n    let mut counts = HashMap::new();\n    for word in words {\n        *counts.entry(word.to_lowercase()).or_insert(0) += ${i};\n    }\n    counts\n}`,
  java: (i) => `public final class Worker${i} implements Runnable {\n    private final BlockingQueue<Job> queue;\n\n    public Worker${i}(BlockingQueue<Job> queue) { this.queue = queue; }\n\n    @Override\n    public void run() {\n        while (!Thread.currentThread().isInterrupted()) {\n            Job job = queue.poll();\n            if (job != null) job.execute(${i});\n        }\n    }\n}`,
  css: (i) => `.panel-${i} {\n  display: grid;\n  grid-template-columns: 1fr ${i}px;\n  color: var(--vscode-foreground);\n  background: var(--vscode-editor-background);\n}\n.panel-${i}:hover { outline: 1px solid var(--vscode-focusBorder); }`,
  sql: (i) => `SELECT u.id, u.name, COUNT(o.id) AS orders\nFROM users u\nLEFT JOIN orders o ON o.user_id = u.id AND o.total > ${i}\nWHERE u.created_at > NOW() - INTERVAL '30 days'\nGROUP BY u.id, u.name\nHAVING COUNT(o.id) > ${i % 7}\nORDER BY orders DESC\nLIMIT 50;`,
  yaml: (i) => `name: build-${i}\non:\n  push:\n    branches: [main]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm test -- --shard=${i}/30`,
};

/** `codeBlocks`: fenced code blocks at least (one every third section until there are that many). */
export function generateReply(targetLength = 200_000, seed = 2024, codeBlocks = 30): string {
  const random = seededRandom(seed);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  const sentence = () => {
    const words = Array.from({ length: 8 + Math.floor(random() * 14) }, () => pick(WORDS));
    const decorate = random();
    if (decorate < 0.15) words[2] = `**${words[2]} ${words[3]}**`;
    else if (decorate < 0.3) words[4] = `*${words[4]}*`;
    else if (decorate < 0.42) words[1] = `\`${words[1]}()\``;
    else if (decorate < 0.52) words[5] = `[${words[5]}](https://example.com/docs/${words[6]})`;
    const text = words.join(' ');
    return text[0].toUpperCase() + text.slice(1) + '.';
  };
  const paragraph = () => Array.from({ length: 3 + Math.floor(random() * 4) }, sentence).join(' ');
  const list = () => {
    const lines: string[] = [];
    for (let i = 0; i < 3 + Math.floor(random() * 4); i++) {
      lines.push(`- ${sentence()}`);
      if (random() < 0.4) for (let j = 0; j < 2; j++) lines.push(`  ${j + 1}. ${sentence()}`);
    }
    return lines.join('\n');
  };
  const table = () => {
    const rows = ['| Setting | Default | Effect |', '|:--|:-:|--:|'];
    for (let i = 0; i < 3 + Math.floor(random() * 5); i++) rows.push(`| \`${pick(WORDS)}.${pick(WORDS)}\` | ${Math.floor(random() * 1000)} | ${sentence()} |`);
    return rows.join('\n');
  };
  const languages = Object.keys(CODE);
  const parts: string[] = [];
  let length = 0;
  let section = 0;
  let codeCount = 0;
  const sectionsBetweenCode = 3;
  while (length < targetLength || codeCount < codeBlocks) {
    const add = (text: string) => {
      parts.push(text);
      length += text.length + 2;
    };
    add(`${random() < 0.3 ? '##' : '###'} ${section + 1}. ${sentence().slice(0, -1)}`);
    add(paragraph());
    const extra = random();
    if (extra < 0.35) add(list());
    else if (extra < 0.55) add(table());
    else if (extra < 0.65) add(`> ${sentence()}\n> ${sentence()}`);
    add(paragraph());
    if (section % sectionsBetweenCode === 1 && codeCount < codeBlocks) {
      const lang = languages[codeCount % languages.length];
      add('```' + lang + '\n' + CODE[lang](codeCount) + '\n```');
      codeCount++;
    }
    section++;
  }
  return parts.join('\n\n') + '\n';
}

/** Seeded deltas of 2–8 characters (a delta may split a word, a fence marker or a surrogate pair). */
export function splitIntoDeltas(text: string, seed = 7, min = 2, max = 8): string[] {
  const random = seededRandom(seed);
  const deltas: string[] = [];
  for (let i = 0; i < text.length; ) {
    const size = min + Math.floor(random() * (max - min + 1));
    deltas.push(text.slice(i, i + size));
    i += size;
  }
  return deltas;
}

/**
 * A long chat: `turns` turns, a question then a reply, about `totalChars` of markdown in all. Replies vary from a
 * few hundred characters to ~5x the mean (most short, some long), each with its own seed; questions are a sentence
 * or three.
 */
export function generateTranscript(turns = 500, totalChars = 2_000_000, seed = 500): WireTurn[] {
  const random = seededRandom(seed);
  const replies = Math.ceil(turns / 2);
  const weights = Array.from({ length: replies }, () => 0.15 + random() ** 3 * 4);
  const scale = totalChars / weights.reduce((sum, w) => sum + w, 0);
  const result: WireTurn[] = [];
  for (let i = 0; i < turns; i++) {
    const createdAt = 1_700_000_000_000 + i * 60_000;
    if (i % 2 === 0) {
      const question = generateReply(1, seed + i, 0).split('\n\n')[1] ?? 'Why?';
      result.push({ id: `u${i}`, role: 'user', createdAt, content: question.slice(0, 60 + Math.floor(random() * 400)) });
    } else {
      const target = Math.round(weights[(i - 1) / 2] * scale);
      const content = generateReply(target, seed + i, Math.floor(target / 8000)).slice(0, Math.max(200, target));
      const tokens = Math.round(content.length / 4);
      result.push({ id: `a${i}`, role: 'assistant', createdAt, model: 'text-large', content, reasoning: '', refusal: '', toolCalls: [], status: 'complete', finishReason: 'stop', usage: { prompt: 40 * i, completion: tokens, total: 40 * i + tokens } });
    }
  }
  return result;
}
