// A fresh bench page per measurement (its own heap), warmed up on a different text so no run pays for JIT compilation.
import type { Browser, CDPSession, Page } from 'playwright-core';
import { generateReply } from './corpus';
import { loadDeltas, warmUp } from './pageScenario';

export async function freshPage(browser: Browser, url: string, deltas: string[]): Promise<{ page: Page; cdp: CDPSession; close(): Promise<void> }> {
  // A chat panel's size rather than a full desktop window: following the bottom repaints the viewport every update.
  const context = await browser.newContext({ viewport: { width: 600, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  await page.evaluate(warmUp, generateReply(30_000, 99));
  await page.evaluate(loadDeltas, deltas);
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  return { page, cdp, close: () => context.close() };
}
