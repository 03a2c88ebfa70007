// The generated tables, so they cannot drift from what they describe:
// - README.md's commands, settings and keyboard shortcuts, from package.json;
// - docs/benchmarks.md's latest figures, from the benches' results (bench/results/<name>.json, written by each run
//   with the commit and date it measured).
// `node scripts/readme-tables.mjs` rewrites them in place (between the `<!-- generated:NAME -->` and
// `<!-- /generated:NAME -->` markers); `--check` only says whether they are current.
// test/unit/manifest/readmeTables.test.ts runs the same check.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(import.meta.url), '../..');

/** What the context keys used in `when` clauses mean, for people. */
const CONTEXT_WORDS = {
  'modelGateway.hasBaseUrl': 'a gateway URL is set',
  'modelGateway.hasApiKey': 'a key is set',
  'modelGateway.chatOpen': 'a chat is open',
  'modelGateway.hasVideoJobs': 'the job list is not empty',
  'modelGateway.connected': 'the gateway answered',
  'modelGateway.hasConnectionReport': 'a connection report was made',
  'modelGateway.chats.filtered': 'the chat list is filtered',
  'modelGateway.connectionReportActive': 'the connection report is shown',
  editorHasSelection: 'text is selected',
  editorTextFocus: 'an editor has focus',
};

/** Whole clauses that read better said at once. */
const CLAUSE_WORDS = {
  '!editorHasSelection || !editorTextFocus': 'no text is selected in a focused editor',
  '!modelGateway.media.empty': 'the media history is not empty',
};

const MENU_PLACES = {
  'editor/context': 'editor context menu',
  'editor/title': 'editor title bar',
};

/** The view a menu entry belongs to, from its `view == id` term. */
const viewOf = (when = '') => /\bview == ([\w.]+)/.exec(when)?.[1];

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n+/g, ' ');
const code = (text) => `\`${String(text).replace(/`/g, "'")}\``;

/** A `when` clause in words, where every term is known; otherwise the clause itself. */
export function describeWhen(when) {
  if (CLAUSE_WORDS[when]) return CLAUSE_WORDS[when];
  const parts = when.split('&&').map((p) => p.trim());
  const words = parts.map((part) => {
    const negated = part.startsWith('!');
    const key = negated ? part.slice(1) : part;
    const word = CONTEXT_WORDS[key];
    return word && !negated ? word : undefined;
  });
  return words.every(Boolean) ? words.join(' and ') : code(when);
}

function commandsTable(manifest) {
  const { commands, menus = {}, keybindings = [], views = {} } = manifest.contributes;
  const viewNames = Object.fromEntries(Object.values(views).flat().map((v) => [v.id, v.name]));
  const rows = commands.map(({ command, title, category }) => {
    const palette = (menus.commandPalette ?? []).find((m) => m.command === command);
    const places = [];
    if (!palette) places.push('Command Palette');
    else if (palette.when !== 'false') places.push(`Command Palette (when ${describeWhen(palette.when)})`);
    for (const [menu, items] of Object.entries(menus)) {
      if (menu === 'commandPalette' || !items.some((m) => m.command === command)) continue;
      for (const view of new Set(items.filter((m) => m.command === command).map((m) => viewOf(m.when)))) {
        const entries = items.filter((m) => m.command === command && viewOf(m.when) === view);
        const inline = entries.some((m) => String(m.group ?? '').startsWith('inline'));
        const menuOnly = entries.some((m) => !String(m.group ?? '').startsWith('inline'));
        const name = view ? (viewNames[view] ?? view) : undefined;
        if (menu === 'view/item/context') places.push(`${name} item ${inline && menuOnly ? '(button and menu)' : inline ? '(button)' : 'menu'}`);
        else if (menu === 'view/title') places.push(`${name} title bar`);
        else places.push(MENU_PLACES[menu] ?? menu);
      }
    }
    const keys = keybindings.filter((k) => k.command === command).map((k) => keyLabel(k.key));
    if (keys.length > 0) places.push([...new Set(keys)].join(', '));
    return `| ${cell(`${category ? `${category}: ` : ''}${title}`)} | ${code(command)} | ${cell(places.join('; '))} |`;
  });
  return ['| Command | ID | Where |', '| --- | --- | --- |', ...rows].join('\n');
}

function defaultText(value) {
  if (value === undefined || value === null) return '(none)';
  if (value === '') return '(empty)';
  return code(JSON.stringify(value));
}

function settingsTable(manifest) {
  const properties = manifest.contributes.configuration.properties;
  const rows = Object.entries(properties)
    .sort(([, a], [, b]) => (a.order ?? 0) - (b.order ?? 0))
    .map(([key, schema]) => {
      const description = (schema.markdownDescription ?? schema.description ?? '').replace(/`?#([\w.]+)#`?/g, '`$1`');
      return `| ${code(key)} | ${defaultText(schema.default)} | ${cell(description)} |`;
    });
  return ['| Setting | Default | Description |', '| --- | --- | --- |', ...rows].join('\n');
}

function keyLabel(key) {
  return key
    .split(' ')
    .map((chord) =>
      chord
        .split('+')
        .map((k) => ({ ctrl: 'Ctrl', alt: 'Alt', shift: 'Shift', cmd: 'Cmd', meta: 'Meta' })[k] ?? k.toUpperCase())
        .join('+'),
    )
    .join(' ');
}

function keybindingsTable(manifest) {
  const titles = Object.fromEntries(manifest.contributes.commands.map((c) => [c.command, c.title]));
  const rows = (manifest.contributes.keybindings ?? []).map(
    (k) => `| ${keyLabel(k.key)} | ${k.mac ? keyLabel(k.mac) : keyLabel(k.key)} | ${cell(titles[k.command] ?? k.command)} | ${k.when ? cell(describeWhen(k.when)) : 'always'} |`,
  );
  return ['| Keys | macOS | Command | When |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

export const SECTIONS = {
  commands: { heading: '## Commands', render: commandsTable },
  settings: { heading: '## Settings', render: settingsTable },
  keybindings: { heading: '## Keyboard shortcuts', render: keybindingsTable },
};

/** The block for one section, markers included. */
export function renderSection(name, manifest) {
  const { heading, render } = SECTIONS[name];
  return `<!-- generated:${name} (scripts/readme-tables.mjs) -->\n${heading}\n\n${render(manifest)}\n<!-- /generated:${name} -->`;
}

/** The README with every generated block replaced; throws when a block's markers are missing. */
export function updateReadme(readme, manifest) {
  let text = readme;
  for (const name of Object.keys(SECTIONS)) {
    const block = new RegExp(`<!-- generated:${name}\\b[^>]*-->[\\s\\S]*?<!-- /generated:${name} -->`);
    if (!block.test(text)) throw new Error(`README.md has no <!-- generated:${name} --> … <!-- /generated:${name} --> block`);
    text = text.replace(block, () => renderSection(name, manifest));
  }
  return text;
}

/** One bench's latest figures as a block, markers included. */
export function renderBenchSection(results) {
  const { bench, command, commit, dirty, date, conditions, figures } = results;
  const status = (f) => (f.met === undefined ? '' : f.met ? 'met' : '**missed**');
  const rows = figures.map((f) => `| ${cell(f.measure)} | ${cell(f.value)} | ${cell(f.target ?? '')} | ${status(f)} |`);
  return [
    `<!-- generated:bench-${bench} (scripts/readme-tables.mjs) -->`,
    `Measured on commit \`${commit}\`${dirty ? ' (with uncommitted changes)' : ''}, ${date}, by ${code(command)}: ${cell(conditions)}.`,
    '',
    '| measure | figure | target | status |',
    '| --- | --- | --- | --- |',
    ...rows,
    `<!-- /generated:bench-${bench} -->`,
  ].join('\n');
}

/**
 * docs/benchmarks.md with each bench's block replaced by its latest results; throws when a result has no block or a
 * block no result, so neither a run nor a section is silently left out.
 */
export function updateBenchmarks(doc, resultsList) {
  let text = doc;
  const names = new Set(resultsList.map((r) => r.bench));
  for (const [, name] of doc.matchAll(/<!-- generated:bench-([\w-]+)\b/g)) {
    if (!names.has(name)) throw new Error(`docs/benchmarks.md shows bench-${name}, which has no bench/results/${name}.json`);
  }
  for (const results of resultsList) {
    const block = new RegExp(`<!-- generated:bench-${results.bench}\\b[^>]*-->[\\s\\S]*?<!-- /generated:bench-${results.bench} -->`);
    if (!block.test(text)) throw new Error(`docs/benchmarks.md has no <!-- generated:bench-${results.bench} --> … <!-- /generated:bench-${results.bench} --> block`);
    text = text.replace(block, () => renderBenchSection(results));
  }
  return text;
}

/** Every bench's latest results (bench/results/*.json), by name. */
export function readBenchResults(root = ROOT) {
  const folder = join(root, 'bench', 'results');
  return readdirSync(folder)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(folder, f), 'utf8')));
}

/** Each generated file: its path, and its text with every generated block brought up to date. */
export function generatedFiles(root = ROOT) {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const readme = join(root, 'README.md');
  const benchmarks = join(root, 'docs', 'benchmarks.md');
  return [
    { path: readme, name: 'README.md', update: (text) => updateReadme(text, manifest) },
    { path: benchmarks, name: 'docs/benchmarks.md', update: (text) => updateBenchmarks(text, readBenchResults(root)) },
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let stale = false;
  for (const { path, name, update } of generatedFiles()) {
    const text = readFileSync(path, 'utf8');
    const updated = update(text);
    if (process.argv.includes('--check')) {
      if (updated !== text) {
        console.error(`${name} tables are out of date: run \`npm run readme:tables\`.`);
        stale = true;
      } else console.log(`${name} tables are current.`);
    } else if (updated !== text) {
      writeFileSync(path, updated);
      console.log(`${name} tables updated.`);
    } else {
      console.log(`${name} tables were already current.`);
    }
  }
  if (stale) process.exit(1);
}
