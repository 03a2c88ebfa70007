// A chat page in the suite's Chromium page: a fresh ChatApp fed host messages, with what it posts recorded.
import type { Page } from 'playwright-core';

export type Posted = Array<{ type: string; [key: string]: unknown }>;

/** Replaces the page's chat with a new one and gives it `messages` (an init first). */
export async function openChat(page: Page, ...messages: unknown[]): Promise<void> {
  await page.evaluate((first) => {
    const w = window as unknown as { Chat: typeof import('../../src/webview/chat/app'); posted: Posted; app: { receive(m: unknown): void } };
    document.body.replaceChildren();
    const root = document.createElement('div');
    document.body.append(root);
    w.posted = [];
    w.app = new w.Chat.ChatApp(root, { post: (m) => w.posted.push(m as Posted[number]), setState: () => undefined });
    for (const message of first) w.app.receive(message);
  }, messages);
}

export function receive(page: Page, message: unknown): Promise<void> {
  return page.evaluate((m) => (window as unknown as { app: { receive(m: unknown): void } }).app.receive(m), message);
}

/** Every message the chat posted to the host since it was opened. */
export function posted(page: Page): Promise<Posted> {
  return page.evaluate(() => (window as unknown as { posted: Posted }).posted);
}
