// Makes the README's pictures of the chat's context, images in and Compare, from the running extension against the gateway simulator:
//   context.png  attachments from the workspace as chips with their token estimates, and the overflow warning;
//   images.png   an image pasted into the chat input, sent to a vision model, beside the picture itself;
//   compare.png  two models' replies to one question side by side, with their timings and usage;
//   chats.png    the Chats view (Today / Yesterday / Last 7 days / Older) beside a chat reopened from it.
// Run after a build: node scripts/screenshot-chat-features.mjs [context] [images] [compare] [chats] (all by default).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { ROOT } from './host-cache.mjs';
import { withWorkbench } from './screenshot-session.mjs';
import { apiNotes, RATE_LIMITER, SERVER, seededChats } from './screenshot-fixtures.mjs';

const require = createRequire(import.meta.url);
const ALL = ['context', 'images', 'compare', 'chats'];
const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ALL;
for (const name of wanted) if (!ALL.includes(name)) throw new Error(`Unknown picture ${name}; one of ${ALL.join(', ')}`);

/** Past chats in the extension's own store format, written by its own store before VS Code starts. */
async function seed(globalStorage) {
  const { ChatSessionStore } = require(join(ROOT, 'out', 'src', 'chat', 'core', 'sessionStore.js'));
  const { NodeFileSystem } = require(join(ROOT, 'out', 'src', 'chat', 'core', 'fileSystem.js'));
  const store = new ChatSessionStore(new NodeFileSystem(join(globalStorage, 'chat')));
  for (const session of seededChats(Date.now())) await store.save(session);
  await store.flush();
}

const LIMITER_QUESTION = 'Why does the limiter let bursts through after a restart?';

const shots = {
  /** A selection sent with a question; then the active file and two workspace files, which overflow the window. */
  async context(wb) {
    const { page } = wb;
    await wb.openFile('src/rateLimiter.ts');
    // The take() method, lines 20 to 31.
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < 19; i++) await page.keyboard.press('ArrowDown');
    for (let i = 0; i < 12; i++) await page.keyboard.press('Shift+ArrowDown');
    const chat = await wb.newChat('model-k3');
    const chips = chat.locator('.context-bar .chips li');
    const addContext = async (item) => {
      const before = await chips.count();
      await chat.locator('button.add-context').click();
      await wb.pick(item);
      return before;
    };
    await chips.nth(await addContext('Selection')).waitFor({ timeout: 30_000 });
    await wb.ask(LIMITER_QUESTION);
    await chips.nth(await addContext('Active File')).waitFor({ timeout: 30_000 });
    const before = await addContext('Workspace File');
    for (const name of ['server.ts', 'api-notes.md']) {
      await page.locator('.quick-input-widget input').fill(name);
      await page.waitForTimeout(800);
      await wb.pick(name);
    }
    await page.keyboard.press('Enter');
    await chips.nth(before + 1).waitFor({ timeout: 30_000 });
    await chat.locator('.context-warning:not([hidden])').waitFor({ timeout: 30_000 });
    await chat.locator('textarea.composer-input').fill('Does the 429 section of the API notes match what this code does?');
    await chat.locator('article.user-turn').first().evaluate((turn) => turn.scrollIntoView({ block: 'start' }));
    await wb.save(page.locator('.editor-group-container').first(), 'context.png');
  },

  /** A chart pasted into the input of a vision model's chat, sent, and pasted again for the next question. */
  async images(wb) {
    const { page } = wb;
    const png = await page.evaluate(drawLatencyChart);
    const file = join(wb.workspace, 'docs', 'latency-chart.png');
    writeFileSync(file, Buffer.from(png, 'base64'));
    const chat = await wb.newChat('model-5.2');
    await wb.openFile('docs/latency-chart.png', { toSide: true });
    const paste = () =>
      chat.locator('textarea.composer-input').evaluate((input, data) => {
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], 'latency-chart.png', { type: 'image/png' }));
        input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
      }, png);
    await paste();
    await chat.locator('.context-bar .chips li').first().waitFor({ timeout: 30_000 });
    await wb.ask('What does this chart show? Which model answers first?');
    await paste();
    await chat.locator('.context-bar .chips li').first().waitFor({ timeout: 30_000 });
    await chat.locator('textarea.composer-input').fill('Suggest a clearer title for it');
    await chat.locator('article.user-turn').first().evaluate((turn) => turn.scrollIntoView({ block: 'start' }));
    await wb.save(page.locator('.part.editor'), 'images.png');
  },

  /** The question in the input, Compare, both chat models picked; both replies complete. */
  async compare(wb) {
    const { page } = wb;
    const chat = await wb.newChat('model-k3');
    await chat.locator('textarea.composer-input').fill('Write a TypeScript function that retries fetch with exponential backoff');
    await chat.getByRole('button', { name: /^Compare models/ }).click();
    await wb.pick('model-5.2');
    await page.keyboard.press('Enter');
    const keep = chat.locator('.compare-column button:not([disabled])', { hasText: 'Keep This Reply' });
    for (let i = 0; i < 120 && (await keep.count()) < 2; i++) await page.waitForTimeout(250);
    await wb.save(page.locator('.editor-group-container').first(), 'compare.png');
    // Kept, the chat is saved with the question and that reply (the Chats picture lists it).
    await keep.nth(1).click();
    await chat.locator('article.assistant-turn[aria-busy="false"]').first().waitFor({ timeout: 30_000 });
  },

  /** The chat of the context picture (or a seeded one) closed, then opened again from the Chats view. */
  async chats(wb) {
    const { page } = wb;
    await wb.runCommand('View: Close All Editors');
    await wb.runCommand('Model Gateway: Focus on Chats View');
    const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Chats' }) });
    for (const other of ['Video Jobs', 'Media']) {
      const header = page.locator('.pane-header.expanded', { hasText: other });
      if (await header.count()) await header.first().click();
    }
    const rows = view.locator('.monaco-list-row');
    await rows.nth(1).waitFor({ timeout: 30_000 });
    // The chat of the context picture when it was taken in this run, else the newest seeded one.
    const live = rows.filter({ hasText: 'Why does the limiter' });
    const row = (await live.count()) > 0 ? live.first() : rows.nth(1);
    await row.click();
    const chat = await wb.chat();
    await chat.locator('article.assistant-turn').first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(800);
    await chat.locator('article.user-turn').first().evaluate((turn) => turn.scrollIntoView({ block: 'start' }));
    // A side bar wide enough for the titles with their model and number of turns.
    const sidebar = await page.locator('.part.sidebar').boundingBox();
    const x = sidebar.x + sidebar.width + 1;
    const y = sidebar.y + sidebar.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 160, y, { steps: 8 });
    await page.mouse.up();
    await wb.save(page.locator('.monaco-workbench'), 'chats.png');
  },
};

/** A bar chart of time to first token by model, drawn in the page (so it is a real PNG from a real canvas). */
function drawLatencyChart() {
  const canvas = document.createElement('canvas');
  canvas.width = 640;
  canvas.height = 400;
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff';
  g.fillRect(0, 0, 640, 400);
  g.fillStyle = '#1f2937';
  g.font = 'bold 22px sans-serif';
  g.fillText('Time to first token (ms, p50)', 40, 44);
  const bars = [
    ['model-k3', 320, '#2563eb'],
    ['model-5.2', 540, '#16a34a'],
    ['gpt-lite', 210, '#f59e0b'],
    ['vision-xl', 760, '#dc2626'],
  ];
  g.strokeStyle = '#9ca3af';
  g.beginPath();
  g.moveTo(60, 340);
  g.lineTo(610, 340);
  g.stroke();
  g.font = '16px sans-serif';
  bars.forEach(([label, value, colour], i) => {
    const x = 90 + i * 130;
    const h = (value / 800) * 250;
    g.fillStyle = colour;
    g.fillRect(x, 340 - h, 80, h);
    g.fillStyle = '#111827';
    g.fillText(String(value), x + 20, 330 - h);
    g.fillText(label, x, 366);
  });
  return canvas.toDataURL('image/png').split(',')[1];
}

await withWorkbench(
  {
    viewport: { width: 1200, height: 780 },
    settings: { 'modelGateway.chat.contextWindow': 8000, 'workbench.editor.enablePreview': false },
    files: { 'src/rateLimiter.ts': RATE_LIMITER, 'src/server.ts': SERVER, 'docs/api-notes.md': apiNotes() },
    seed: wanted.includes('chats') ? seed : undefined,
  },
  async (wb) => {
    await wb.page.keyboard.press('Control+B');
    for (const name of wanted) {
      console.log(`taking ${name}`);
      await shots[name](wb);
      if (name !== 'chats') await wb.runCommand('View: Close All Editors');
    }
  },
);
