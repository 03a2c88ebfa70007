// The Usage dashboard and the chat header as a person sees them: in a half-width panel (400 px) and a wide one
// (1,400 px), in a light and a dark theme. Nothing runs off the page, no column header breaks inside a word, the
// chart's legend shows figures before anything is hovered, and the effort choice is shown whole. Each layout is
// also written as a screenshot (out/screenshots/) for a person to look at.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from './harness';
import { chatBundle } from './chatBundle';
import { chatCss } from './harness';
import { useSuitePage } from './suitePage';
import { openChat } from './chatPage';
import { summarize } from '../../src/usage/core/summary';
import type { UsageRecord } from '../../src/usage/core/recordTypes';

const WIDTHS = [400, 1400] as const;
const SHOTS = join(REPO_ROOT, 'out', 'screenshots');

/** The theme variables the pages read, as VS Code's Light+ and Dark+ set them. */
const THEMES: Record<'light' | 'dark', Record<string, string>> = {
  light: {
    '--vscode-foreground': '#3b3b3b',
    '--vscode-editor-background': '#ffffff',
    '--vscode-editorWidget-border': '#c8c8c8',
    '--vscode-dropdown-foreground': '#3b3b3b',
    '--vscode-dropdown-background': '#ffffff',
    '--vscode-dropdown-border': '#cecece',
    '--vscode-input-background': '#ffffff',
    '--vscode-input-foreground': '#3b3b3b',
    '--vscode-button-foreground': '#ffffff',
    '--vscode-button-background': '#005fb8',
    '--vscode-font-family': 'sans-serif',
    '--vscode-font-size': '13px',
  },
  dark: {
    '--vscode-foreground': '#cccccc',
    '--vscode-editor-background': '#1f1f1f',
    '--vscode-editorWidget-border': '#454545',
    '--vscode-dropdown-foreground': '#cccccc',
    '--vscode-dropdown-background': '#313131',
    '--vscode-dropdown-border': '#3c3c3c',
    '--vscode-input-background': '#313131',
    '--vscode-input-foreground': '#cccccc',
    '--vscode-button-foreground': '#ffffff',
    '--vscode-button-background': '#0078d4',
    '--vscode-font-family': 'sans-serif',
    '--vscode-font-size': '13px',
  },
};

async function theme(page: Page, name: keyof typeof THEMES): Promise<void> {
  await page.evaluate(
    ([vars, dark]) => {
      for (const [key, value] of Object.entries(vars)) document.documentElement.style.setProperty(key, value);
      document.body.className = dark ? 'vscode-dark' : 'vscode-light';
      document.body.style.background = vars['--vscode-editor-background'];
      document.body.style.color = vars['--vscode-foreground'];
    },
    [THEMES[name], name === 'dark'] as const,
  );
}

/** Words of the elements' text that the layout broke across lines (a word whose boxes lie on more than one line). */
function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const broken: string[] = [];
    for (const node of document.querySelectorAll(sel)) {
      const text = node.firstChild;
      if (!text || text.nodeType !== Node.TEXT_NODE) continue;
      const value = text.textContent ?? '';
      let at = 0;
      for (const word of value.split(' ')) {
        const range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, at + word.length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(word);
        at += word.length + 1;
      }
    }
    return broken;
  }, selector);
}

/** How far the page runs past the window's right edge (0: nothing does). */
function overflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
}

async function usageBundle(): Promise<{ js: string; css: string }> {
  const result = await esbuild.build({
    entryPoints: [join(REPO_ROOT, 'src', 'webview', 'usage', 'main.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    outdir: join(REPO_ROOT, 'out', 'narrow-panels'),
    logLevel: 'error',
  });
  const file = (ext: string) => result.outputFiles.find((f) => f.path.endsWith(ext))?.text ?? '';
  // The page's host: the messages it posts are kept, its state is none.
  const host = 'window.acquireVsCodeApi = () => ({ postMessage: (m) => (window.posted ??= []).push(m), setState: () => undefined, getState: () => undefined });\n';
  return { js: host + file('.js'), css: file('.css') };
}

const NOW = new Date(2026, 10, 20, 15).getTime();
const DAY = 86_400_000;

function records(): UsageRecord[] {
  const base = { profile: 'default', workspace: 'my-project', outcome: 'ok', costSource: 'estimated' } as const;
  return [
    { ...base, time: NOW - 1000, surface: 'chat', model: 'openai/gpt-5.2-codex', modality: 'chat', inputTokens: 182_340, outputTokens: 41_200, cost: 1.23 },
    { ...base, time: NOW - DAY, surface: 'image', model: 'google/gemini-3-pro-image-preview', modality: 'image', images: 4, cost: 0.52 },
    { ...base, time: NOW - 2 * DAY, surface: 'video', model: 'google/veo-3.1', modality: 'video', videoSeconds: 16, cost: 3.2 },
    { ...base, time: NOW - 2 * DAY, surface: 'speech', model: 'openai/gpt-4o-mini-tts', modality: 'speech', speechChars: 12_000, cost: 0.18 },
    { ...base, time: NOW - 3 * DAY, surface: 'models', model: '', modality: 'chat', costSource: 'unknown' },
    { ...base, time: NOW - 3 * DAY, surface: 'test-connection', model: '', modality: 'chat', costSource: 'unknown' },
  ];
}

describe('narrow and wide panels, light and dark', function () {
  this.timeout(60_000);

  describe('the Usage dashboard', () => {
    let bundle: { js: string; css: string } | undefined;
    const suite = useSuitePage(undefined, {
      body: '<div id="app"></div>',
      script: async () => (bundle ??= await usageBundle()).js,
    });

    for (const width of WIDTHS) {
      for (const name of ['light', 'dark'] as const) {
        it(`at ${width} px in the ${name} theme: whole headers, legend figures unhovered, rows named, nothing off the page`, async () => {
          const page = suite.page;
          bundle ??= await usageBundle();
          await page.setViewportSize({ width, height: 900 });
          await page.evaluate((css) => {
            if (document.getElementById('usage-css')) return;
            const style = Object.assign(document.createElement('style'), { id: 'usage-css', textContent: css });
            document.head.append(style);
          }, bundle.css);
          await theme(page, name);
          const summary = summarize(records(), { period: '30d', stackBy: 'model', groupBy: 'model', now: NOW });
          await page.evaluate((s) => window.postMessage({ type: 'summary', summary: s, damaged: 0 }, '*'), summary);
          await page.waitForFunction(() => document.body.dataset.painted === 'true' && document.querySelector('.u-legend') !== null);
          await page.mouse.move(width - 2, 890);
          mkdirSync(SHOTS, { recursive: true });
          await page.screenshot({ path: join(SHOTS, `usage-${width}-${name}.png`), fullPage: true });

          assert.deepEqual(await brokenWords(page, '#table thead th'), [], 'no column header breaks inside a word');
          assert.equal(await overflow(page), 0, 'nothing runs off the page');
          const legend = await page.$$eval('.u-legend .u-series', (rows) => rows.map((r) => [r.querySelector('.u-label')?.textContent ?? '', r.querySelector('.u-value')?.textContent ?? '']));
          assert.ok(legend.length > 1, 'a legend');
          for (const [label, value] of legend) assert.notEqual(value.trim(), '', `the legend shows ${label}'s figure before anything is hovered`);
          const rows = await page.$$eval('#table tbody th', (cells) => cells.map((c) => c.textContent));
          assert.ok(rows.includes('Model lists') && rows.includes('Test Connection'), `rows named by what they were: ${rows.join(', ')}`);
          assert.ok(!rows.includes('(none)'));
        });
      }
    }
  });

  describe("the chat header's effort choice", () => {
    const suite = useSuitePage(undefined, { body: '', script: chatBundle, styles: chatCss() });
    const settings = { model: 'anthropic/claude-sonnet-4.5-thinking-extended', systemPrompt: '', sampling: { mode: 'default' }, maxTokens: null, stop: [], jsonMode: false };
    const models = { models: ['anthropic/claude-sonnet-4.5-thinking-extended', 'model-k3'], loading: false, efforts: { 'anthropic/claude-sonnet-4.5-thinking-extended': ['low', 'medium', 'high'] } };

    for (const width of WIDTHS) {
      for (const name of ['light', 'dark'] as const) {
        it(`at ${width} px in the ${name} theme: shown whole, inside the panel`, async () => {
          const page = suite.page;
          await page.setViewportSize({ width, height: 600 });
          await openChat(page, { type: 'init', sessionId: 's1', title: 'Effort', settings, turns: [], models });
          await theme(page, name);
          mkdirSync(SHOTS, { recursive: true });
          await page.screenshot({ path: join(SHOTS, `chat-header-${width}-${name}.png`) });
          const fit = await page.evaluate(() => {
            const select = document.querySelector<HTMLSelectElement>('.effort-select')!;
            // The width the select takes when nothing constrains it: its whole text.
            const free = select.cloneNode(true) as HTMLSelectElement;
            free.style.cssText = 'position:absolute;visibility:hidden;max-width:none;width:auto;flex:none';
            document.body.append(free);
            const natural = free.getBoundingClientRect().width;
            free.remove();
            const box = select.getBoundingClientRect();
            return { natural, width: box.width, right: box.right, viewport: window.innerWidth, visible: select.offsetParent !== null };
          });
          assert.ok(fit.visible, 'the effort choice is shown');
          assert.ok(fit.width >= fit.natural - 1, `its whole text fits: ${fit.width} of ${fit.natural} px`);
          assert.ok(fit.right <= fit.viewport, `inside the panel: right edge ${fit.right} of ${fit.viewport}`);
          assert.equal(await overflow(page), 0, 'nothing runs off the page');
        });
      }
    }
  });
});
