// The chat webview as a person sees it: its frame inside the workbench, the composer, the turns and their
// buttons. Frames are looked up again on each use, since a reload or a hidden panel replaces them.
import type { Frame, Locator } from 'playwright-core';
import { COMPOSER, textNow, until, WAIT_MS, type Workbench } from './workbench';

/** The tab of the chat the flow opens, titled after its first message. */
export const CHAT_TAB = /Compare the models/;

export class ChatView {
  constructor(private readonly wb: Workbench) {}

  /** Brings the flow's chat to the front by its tab, as after other editors were opened over it. */
  async showTab(): Promise<void> {
    const tab = this.wb.page.locator('.tabs-container .tab', { hasText: CHAT_TAB }).first();
    if (!(await tab.isVisible())) {
      // A flow that closed every editor (for a picture) closed the chat too: the Chats view opens it again.
      await this.wb.runCommand('Model Gateway: Focus on Chats View');
      await this.wb.page.locator('.monaco-list-row', { hasText: CHAT_TAB }).first().click({ timeout: WAIT_MS });
      await tab.waitFor({ timeout: WAIT_MS });
    }
    await tab.click();
  }

  frame(): Promise<Frame> {
    return this.wb.chatFrame();
  }

  async composer(): Promise<Locator> {
    return (await this.frame()).locator(COMPOSER);
  }

  async assistantTurns(): Promise<Locator> {
    return (await this.builtFrame()).locator('article.assistant-turn');
  }

  /**
   * The chat's frame once every message of the chat as opened is built: a long chat builds its older messages after
   * its last screens (in idle time), and counting or indexing messages before that would miss them. The page says
   * so itself (src/webview/chat/main.ts): a frame whose chat has not even arrived yet has no placeholder either.
   */
  private async builtFrame(): Promise<Frame> {
    return until(async () => {
      const frame = await this.frame();
      return (await frame.locator('body[data-history="built"]').count()) === 1 ? frame : undefined;
    }, 'the chat to be built, older messages included');
  }

  async lastReply(): Promise<Locator> {
    return (await this.assistantTurns()).last();
  }

  async userTurns(): Promise<Locator> {
    return (await this.builtFrame()).locator('article.user-turn');
  }

  /** What the user's messages say, in order. */
  async userTexts(): Promise<string[]> {
    // textContent: a turn scrolled far out of view is not laid out (content-visibility), so it has no innerText.
    return (await this.userTurns()).locator('.user-text').allTextContents();
  }

  /** Types `text` into the composer (as keystrokes, so the webview's key handling runs) and presses Enter. */
  async send(text: string): Promise<void> {
    const composer = await this.composer();
    await composer.click();
    await composer.fill('');
    await composer.pressSequentially(text);
    await composer.press('Enter');
  }

  /** Sends `text` and waits for its reply to finish; resolves with the reply. */
  async sendAndWait(text: string): Promise<Locator> {
    const before = await (await this.assistantTurns()).count();
    await this.send(text);
    const reply = await this.waitForReplyCount(before + 1);
    await this.waitForFinished(reply);
    return reply;
  }

  /** The rendered text of a reply (its Markdown content). */
  async replyText(turn?: Locator): Promise<string> {
    const reply = turn ?? (await this.lastReply());
    return textNow(reply.locator('.content'));
  }

  /** Whether the reply is streaming and how long its text is, read in one go. */
  async sample(turn: Locator): Promise<{ streaming: boolean; length: number }> {
    return turn.evaluate((el) => ({ streaming: el.getAttribute('aria-busy') === 'true', length: (el.querySelector('.content') as HTMLElement | null)?.innerText.length ?? 0 }));
  }

  async isStreaming(turn?: Locator): Promise<boolean> {
    const reply = turn ?? (await this.lastReply());
    return (await reply.getAttribute('aria-busy')) === 'true';
  }

  /** Waits for a new reply (the n-th) to exist and then to finish. */
  async waitForReplyCount(count: number): Promise<Locator> {
    await until(async () => (await (await this.assistantTurns()).count()) >= count, `reply #${count}`);
    return (await this.assistantTurns()).nth(count - 1);
  }

  async waitForFinished(turn?: Locator, timeoutMs = 2 * WAIT_MS): Promise<void> {
    const reply = turn ?? (await this.lastReply());
    await until(async () => (await reply.getAttribute('aria-busy')) === 'false', 'the reply to finish', timeoutMs);
  }

  /** The polite live region's announcements and the assertive one's alert. */
  async liveRegions(): Promise<{ polite: string[]; assertive: string }> {
    const frame = await this.frame();
    const polite = await frame.locator('#live-polite p').allInnerTexts();
    const assertive = (await frame.locator('#live-assertive').textContent()) ?? '';
    return { polite, assertive };
  }
}
