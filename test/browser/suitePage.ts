// One Chromium and one markdown test page per mocha suite: opened in before(), closed in after(). An uncaught
// exception or a CSP violation in the page fails the test during which it happened (see launchChromium).
import type { Browser, Page } from 'playwright-core';
import { launchChromium, servePage, type PageOptions, type ServedPage } from './harness';

export interface SuitePage {
  /** Set once before() has run. */
  readonly page: Page;
  readonly served: ServedPage;
}

/** `prepare` runs in before(), once the page is loaded (e.g. to install page-side helpers). */
export function useSuitePage(prepare?: (page: Page) => Promise<unknown>, pageOptions?: PageOptions): SuitePage {
  let browser: Browser | undefined;
  const suite = {} as { page: Page; served: ServedPage };
  before(async () => {
    [browser, suite.served] = await Promise.all([launchChromium(), servePage(pageOptions)]);
    suite.page = await browser.newPage();
    await suite.page.goto(suite.served.url);
    await prepare?.(suite.page);
  });
  after(async () => {
    await browser?.close();
    await suite.served?.close();
  });
  return suite;
}
