// Reading the workbench's own views: the walkthrough's steps, tree rows, and VS Code's chat model picker.
import type { Frame, Locator, Page } from 'playwright-core';
import { until, WAIT_MS, type Workbench } from './workbench';

/** A step of the open walkthrough, by its title. */
export function walkthroughStep(wb: Workbench, title: string): Locator {
  return wb.page.locator('button.getting-started-step', { hasText: title });
}

/** Whether the walkthrough shows the step as done (VS Code ticks it when its completion event fires). */
export async function walkthroughStepDone(wb: Workbench, title: string): Promise<boolean> {
  return (await walkthroughStep(wb, title).first().getAttribute('aria-checked')) === 'true';
}

/** Waits for VS Code to tick a step of the open walkthrough. The tick is VS Code's own: its getting-started page
 * updates the open step list when the step's completion event fires. Once in CI (never here) the context key was
 * set, the welcome view changed with it, and the open page still showed the step unticked for a minute; so after
 * a while the walkthrough is opened again, which draws the steps from VS Code's stored progress. A step that is
 * unticked there too fails the test. */
export async function untilStepTicked(wb: Workbench, title: string): Promise<void> {
  try {
    await until(() => walkthroughStepDone(wb, title), `the step "${title}" to be ticked`, WAIT_MS / 3);
    return;
  } catch {
    await wb.screenshot(`walkthrough-unticked-${title.replace(/[^a-z]+/gi, '-')}`);
    await wb.runCommand('Welcome: Open Walkthrough...');
    await wb.pick('Get Started with Model Gateway');
  }
  await until(() => walkthroughStepDone(wb, title), `the step "${title}" to be ticked, even in the walkthrough opened again`);
}

/** One view of the Model Gateway side bar (Chats, Video Jobs, Media), by its name. */
export function sideBarView(wb: Workbench, name: string): Locator {
  return wb.page.locator('.part.sidebar .pane').filter({ has: wb.page.locator('.pane-header', { hasText: name }) });
}

/** The welcome text a view shows while it has nothing else to show. */
export function welcomeView(wb: Workbench, view: string, text: string): Locator {
  return sideBarView(wb, view).locator('.welcome-view-content', { hasText: text });
}

/**
 * Answers Generate Video's six steps (the command already run): the prompt, the edit model, 1280x720, 4 seconds, no
 * source video, no first frame.
 */
export async function answerGenerateVideo(wb: Workbench, prompt: string): Promise<void> {
  const step = (n: number) => wb.quickInputTitled(`Generate Video (${n}/6)`);
  await wb.answerInput(prompt, 'Generate Video (1/6)');
  await step(2);
  await wb.pick('model-1.0-video-edit');
  await step(3);
  await wb.pick('1280x720');
  await wb.answerInput('4', 'Generate Video (4/6)');
  await wb.answerInput('', 'Generate Video (5/6)');
  await step(6);
  await wb.pick('No first frame');
}

/** A row of the Video Jobs tree: a job (by the start of its prompt) or a result (by its file name). */
export function videoRow(wb: Workbench, text: string | RegExp): Locator {
  return sideBarView(wb, 'Video Jobs').locator('.monaco-list-row').filter({ hasText: text });
}

/** An action in the title bar of the Model Gateway side bar (the Video Jobs view's own actions). */
export function viewTitleAction(wb: Workbench, label: string): Locator {
  return wb.page.locator(`.part.sidebar .title-actions .action-label[aria-label="${label}"], .part.sidebar .pane-header .actions .action-label[aria-label="${label}"]`);
}

/** Clicks an inline action of a tree row (shown on hover). */
export async function rowAction(row: Locator, label: string): Promise<void> {
  await row.hover();
  await row.locator(`.actions .action-label[aria-label="${label}"]`).click();
}

/** Opens a tree row's context menu and clicks `item`. */
export async function rowMenu(wb: Workbench, row: Locator, item: string): Promise<void> {
  await wb.menuItem(item, () => row.click({ button: 'right', timeout: 5000 }));
}

export interface PreviewVideo {
  click(): Promise<void>;
  readyState(): Promise<number>;
  /** Starts playback as its play button would (the browser lets media play without a gesture). */
  play(): Promise<void>;
  currentTime(): Promise<number>;
}

/** The <video> of the preview panel, read through its webview frame. */
export async function findVideo(page: Page): Promise<PreviewVideo | undefined> {
  for (const frame of page.frames()) {
    if (frame.isDetached()) continue;
    const video = frame.locator('video');
    if ((await video.count().catch(() => 0)) === 0) continue;
    return {
      click: () => video.click(),
      readyState: () => readyStateIn(frame),
      play: () => video.evaluate((v) => (v as HTMLVideoElement).play()),
      currentTime: () => video.evaluate((v) => (v as HTMLVideoElement).currentTime),
    };
  }
  return undefined;
}

function readyStateIn(frame: Frame): Promise<number> {
  return frame.locator('video').evaluate((v) => (v as HTMLVideoElement).readyState);
}
