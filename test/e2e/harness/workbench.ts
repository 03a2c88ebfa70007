// Driving the VS Code workbench as a person does: the command palette, quick inputs, notifications, dialogs,
// views and menus, and the chat webview's frame. Every wait is on a condition, never a fixed sleep.
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { EXTENSION_ID, type E2ESession } from './session';

/** The chat's composer, by its accessible name (stable while its look changes). */
export const COMPOSER = 'textarea[aria-label="Message"]';

/** Generous: the machine runs the suite on 2 busy cores. */
export const WAIT_MS = 60_000;
/** A harness wait or step that takes longer than this is named in the log (a retry that worked still costs CI time). */
export const SLOW_MS = 15_000;

/** Polls `probe` until it returns something truthy. */
export async function until<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, what: string, timeoutMs = WAIT_MS, intervalMs = 100): Promise<T> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) {
        // A wait that succeeds late is a retry that worked: say what it waited on, and what failed meanwhile.
        if (Date.now() - started > SLOW_MS) console.log(`      [slow wait] ${what}: ${((Date.now() - started) / 1000).toFixed(1)} s${lastError ? ` (an attempt failed: ${String(lastError).split('\n')[0].slice(0, 200)})` : ''}`);
        return value;
      }
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String(lastError)})` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** The element's text as shown now, or '' when it is not there: a read inside `until` must not itself wait out
 * the page's 60 s timeout (Compare Models… once took 67 s that way). */
export function textNow(locator: Locator): Promise<string> {
  return locator.innerText({ timeout: 1000 }).catch(() => '');
}

export class Workbench {
  constructor(readonly session: E2ESession) {}

  get page(): Page {
    return this.session.page;
  }

  /** The extension's status bar item, once the extension has activated. */
  status(): Locator {
    return this.page.locator(`[id="${EXTENSION_ID}.modelGateway.status"]`);
  }

  /** The first activation waits for the whole workbench and extension host to start: the slowest step. */
  async waitForExtension(): Promise<void> {
    await this.status().waitFor({ timeout: 6 * WAIT_MS });
  }

  /** Runs a command from the Command Palette by its full title, e.g. "Model Gateway: Set API Key". */
  async runCommand(title: string): Promise<void> {
    // A webview that takes the focus as it comes back (after a reload) closes the palette: open it again.
    await until(async () => {
      await this.filterPalette(title);
      const row = this.quickPickRow(title).first();
      await row.waitFor({ timeout: WAIT_MS / 2 });
      await row.click({ timeout: 5000 });
      return true;
    }, `the command "${title}" to run from the palette`, 2 * WAIT_MS, 500);
  }

  /** Shows the Video Jobs view in the side bar (clicking the activity bar icon would hide it when shown). */
  async showVideoJobs(): Promise<void> {
    await this.runCommand('Model Gateway: Focus on Video Jobs View');
    await this.page.locator('.part.sidebar .pane-header, .part.sidebar .composite.title', { hasText: /Video Jobs/i }).first().waitFor({ timeout: WAIT_MS });
  }

  /** Opens a workspace file from the Explorer; resolves when its text shows. */
  async openFile(name: string, firstLine: string): Promise<void> {
    await this.runCommand('View: Show Explorer');
    const row = this.page.locator('.explorer-folders-view .monaco-list-row', { has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(name)}$`) }) });
    await row.first().dblclick({ timeout: WAIT_MS });
    await this.editorLines(firstLine).waitFor({ timeout: WAIT_MS });
  }

  /** Opens `file`, selects its line starting with `line` and runs `item` from the editor's context menu. */
  async runOnLine(file: string, line: string, item: string): Promise<void> {
    await this.openFile(file, line);
    // The editor draws spaces as no-break spaces.
    const row = this.page.locator('.editor-instance .monaco-editor .view-line').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(line).replace(/ /g, '\\s')}`) }).first();
    await row.click();
    await this.page.keyboard.press('Home');
    await this.page.keyboard.press('Shift+End');
    // On the line's first word, inside the selection, so the right click keeps it.
    await this.menuItem(item, () => row.locator('span span').first().click({ button: 'right', timeout: 5000 }));
  }

  /** The visible lines of the (first) text editor showing `text`. */
  editorLines(text: string): Locator {
    return this.page.locator('.editor-instance .monaco-editor .view-lines').filter({ hasText: text }).first();
  }

  /** Whether the palette offers a command (for `when` clauses that hide it). */
  async paletteOffers(title: string): Promise<boolean> {
    await this.filterPalette(title);
    // An absent command leaves "No matching commands", or only other (fuzzy or similar) rows: the answer is the
    // same on two looks in a row once the list has settled.
    let last: string | undefined;
    const offered = await until(async () => {
      const exact = (await this.quickPickRow(title).count()) > 0;
      const settled = exact || (await this.page.locator('.quick-input-widget', { hasText: 'No matching commands' }).count()) > 0 || (await this.page.locator('.quick-input-list .monaco-list-row').count()) > 0;
      const now = settled ? String(exact) : undefined;
      const same = now !== undefined && now === last;
      last = now;
      return same ? { exact } : undefined;
    }, `the palette to filter for ${title}`, WAIT_MS, 300).then((r) => r.exact);
    await this.page.keyboard.press('Escape');
    return offered;
  }

  /** Opens the Command Palette and types `title` into it. */
  private async filterPalette(title: string): Promise<void> {
    await this.closeQuickInput();
    // Keys typed into a focused webview reach the workbench only through the webview's forwarding, which can
    // hand focus back to the webview and close the palette: take focus out of any webview first.
    await this.page.evaluate(() => {
      const active = document.activeElement;
      if (active instanceof HTMLIFrameElement) active.blur();
    });
    const input = this.quickInputBox();
    const open = async () => (await input.isVisible()) && (await input.isEditable());
    await until(async () => {
      if (!(await open())) await this.page.keyboard.press('F1');
      if (!(await open())) return false;
      // Briefly, and open it again on a miss: a webview that takes the focus can close the palette right after the
      // look above, and the fill would wait out the page's 60 s for an input that is not coming back.
      await input.fill(`>${title}`, { timeout: 5000 });
      return true;
    }, `the Command Palette to take "${title}"`, WAIT_MS, 500);
  }

  quickInputBox(): Locator {
    return this.page.locator('.quick-input-widget input.input');
  }

  /** A row of the open quick pick whose label is exactly `label` (codicons in labels are ignored). */
  quickPickRow(label: string | RegExp): Locator {
    const exact = typeof label === 'string' ? new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) : label;
    return this.page.locator('.quick-input-list .monaco-list-row').filter({ has: this.page.locator('.label-name', { hasText: exact }) });
  }

  /** Waits for the quick input whose title matches `title`: a step of a flow, not just any open input. */
  async quickInputTitled(title: string | RegExp): Promise<void> {
    await this.page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor({ timeout: WAIT_MS });
  }

  /** Waits for the quick input titled `title` (or any), types `text` and accepts it. */
  async answerInput(text: string, title?: string | RegExp): Promise<void> {
    if (title) await this.quickInputTitled(title);
    const input = this.quickInputBox();
    await input.waitFor({ timeout: WAIT_MS });
    await input.fill(text);
    await input.press('Enter');
  }

  /** Picks `label` in the open quick pick; `timeoutMs` is shorter where the caller opens the pick again after a miss. */
  async pick(label: string | RegExp, timeoutMs = WAIT_MS): Promise<void> {
    const row = this.quickPickRow(label);
    await row.first().waitFor({ timeout: timeoutMs });
    try {
      // Within the same limit: a pick that closes under the click leaves it nothing to wait for.
      await row.first().click({ timeout: timeoutMs });
    } catch (error) {
      // A pick that closes by itself lost the focus: say where it went, which is the defect to look for.
      if (await this.page.locator('.quick-input-widget').isHidden()) {
        const focused = await this.page.evaluate(() => {
          const active = document.activeElement;
          return active ? `${active.tagName.toLowerCase()}${active.className ? `.${String(active.className).split(' ').join('.')}` : ''}` : 'nothing';
        });
        throw new Error(`The quick pick closed before "${String(label)}" was picked; the focus is on ${focused}. ${String(error)}`);
      }
      throw error;
    }
  }

  /**
   * Presses Escape until no quick input is open. One press is not enough: an Escape that reaches the workbench while
   * the focus is elsewhere (a webview, the Explorer) leaves the input open, so each press is made from its box.
   */
  async closeQuickInput(): Promise<void> {
    const widget = this.page.locator('.quick-input-widget');
    await until(async () => {
      if (await widget.isHidden()) return true;
      await this.quickInputBox().focus({ timeout: 1000 }).catch(() => undefined);
      await this.page.keyboard.press('Escape');
      return false;
    }, 'the quick input to close', WAIT_MS, 500);
  }

  /** A notification toast whose text matches. */
  toast(text: string | RegExp): Locator {
    return this.page.locator('.notification-toast').filter({ hasText: text });
  }

  /** Clicks a button of the toast matching `text`. */
  async toastAction(text: string | RegExp, button: string): Promise<void> {
    const toast = this.toast(text);
    await toast.first().waitFor({ timeout: WAIT_MS });
    await toast.first().locator('.monaco-button', { hasText: button }).click();
  }

  async closeToasts(): Promise<void> {
    // Short waits: a toast can go by itself meanwhile, and one with a progress bar has no clear button; the
    // page's default timeout would spend a minute on each.
    for (const toast of await this.page.locator('.notification-toast').all()) {
      await toast.hover({ timeout: 2000 }).catch(() => undefined);
      await toast.locator('.codicon-notifications-clear').click({ timeout: 2000 }).catch(() => undefined);
    }
  }

  /** A modal dialog's button, by its exact label. */
  /**
   * Closes every editor. An untitled editor an earlier flow left with changes (Apply into a new file) asks before it
   * closes, in a modal that would block every later click: its changes are the flow's, so they are not saved.
   */
  async closeAllEditors(): Promise<void> {
    await this.runCommand('View: Close All Editors');
    const dontSave = this.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^\s*Don.t Save\s*$/ }).first();
    await until(async () => {
      if (await dontSave.isVisible()) await dontSave.click({ timeout: 2000 }).catch(() => undefined);
      return (await this.page.locator('.tabs-container .tab').count()) === 0;
    }, 'every editor to close');
  }

  async dialogButton(label: string): Promise<void> {
    const button = this.page.locator('.monaco-dialog-box .monaco-button', { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) });
    await button.first().waitFor({ timeout: WAIT_MS });
    await button.first().click();
  }

  /**
   * Clicks an entry of the context menu that `open` opens (or of the one already open). A menu can close before
   * the click (a webview that takes the focus as it loads closes it) or drop a click that comes too soon after it
   * opened (on a busy machine, one re-laid out as the tree under it changes): open it again, click again, until a
   * click lands and the menu closes.
   */
  async menuItem(label: string, open?: () => Promise<void>): Promise<void> {
    const menu = this.page.locator('.monaco-menu').first();
    const item = this.page.locator('.monaco-menu .action-item', { has: this.page.locator('.action-label', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) }).first();
    await until(async () => {
      if (open && !(await menu.isVisible())) await open();
      if (!(await item.waitFor({ timeout: 3000 }).then(() => true, () => false))) {
        // A menu opened a moment too soon (a job row still submitting) lists what its item had then, and stays open:
        // close it, so the next try opens it afresh.
        if (open && (await menu.isVisible())) await this.page.keyboard.press('Escape');
        return false;
      }
      if (!(await item.click({ timeout: 5000 }).then(() => true, () => false))) return false;
      return menu.waitFor({ state: 'hidden', timeout: 2000 }).then(() => true, () => false);
    }, `the menu to run ${label}`);
  }

  /** The frame holding the chat webview's page (the inner frame of the webview host). */
  async chatFrame(): Promise<Frame> {
    return until(async () => {
      for (const frame of this.page.frames()) {
        if (frame.isDetached()) continue;
        const composer = frame.locator(COMPOSER);
        if ((await composer.count().catch(() => 0)) > 0 && (await composer.first().isVisible().catch(() => false))) return frame;
      }
      return undefined;
    }, 'the chat webview');
  }

  /**
   * Saves a numbered screenshot in the run's artifacts folder: of the whole window, or of the smallest rectangle
   * holding the given parts of it (`areas`: a README picture that must stay under its size limit).
   */
  async screenshot(name: string, areas: Locator[] = []): Promise<string> {
    const dir = join(this.session.paths.artifacts, 'screenshots');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${String(++this.session.screenshots).padStart(2, '0')}-${name}.png`);
    const boxes = await Promise.all(areas.map((area) => area.boundingBox()));
    if (boxes.some((box) => !box)) throw new Error(`${name}: a part to take is not shown`);
    const shown = boxes as Array<{ x: number; y: number; width: number; height: number }>;
    const x = Math.min(...shown.map((b) => b.x));
    const y = Math.min(...shown.map((b) => b.y));
    const clip = { x, y, width: Math.max(...shown.map((b) => b.x + b.width)) - x, height: Math.max(...shown.map((b) => b.y + b.height)) - y };
    await this.page.screenshot({ path: file, ...(shown.length > 0 && { clip }) });
    return file;
  }

  /** After a failed flow: closes what it may have left open (a palette, a menu, a dialog) for the next one. */
  async tidy(): Promise<void> {
    for (let i = 0; i < 3; i++) await this.page.keyboard.press('Escape').catch(() => undefined);
    await this.closeToasts();
  }

  /** Ids of the commands the extension has run, from its log (each run is logged at debug level). */
  commandRuns(): Set<string> {
    const runs = new Set<string>();
    for (const file of logFiles(join(this.session.paths.userData, 'logs'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\[debug\] Command (modelGateway\.[\w.]+)/g)) runs.add(match[1]);
    }
    return runs;
  }

  /**
   * Developer: Reload Window, as a user reloads: the workbench shuts down in order and saves its editors and
   * views first (a bare page reload may lose what changed in the last seconds, such as the editor in front).
   */
  async reload(): Promise<void> {
    const navigated = this.page.waitForEvent('framenavigated', { predicate: (frame) => frame === this.page.mainFrame(), timeout: 2 * WAIT_MS });
    await this.runCommand('Developer: Reload Window');
    await navigated;
    await this.page.waitForLoadState('domcontentloaded');
    // Seen on a machine loaded ten times over: the server launched the new extension host, which then never
    // started any extension, built-in ones included. Loading the page once more gets a working host; an
    // extension of ours that failed to activate would fail the second time too.
    const up = await this.status()
      .waitFor({ timeout: 3 * WAIT_MS })
      .then(() => true, () => false);
    if (up) return;
    console.warn('      (no extension host after the reload: loading the page again)');
    await this.page.reload();
    await this.waitForExtension();
  }
}

/** Every log file the extension wrote, in any session of the server and any extension host. */
function logFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return logFiles(full);
    return full.includes(EXTENSION_ID) && name.endsWith('.log') ? [full] : [];
  });
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
