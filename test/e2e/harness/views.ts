// Reading the workbench's own views: the walkthrough's steps, tree rows, and VS Code's chat model picker.
import type { Locator } from 'playwright-core';
import type { Workbench } from './workbench';

/** A step of the open walkthrough, by its title. */
export function walkthroughStep(wb: Workbench, title: string): Locator {
  return wb.page.locator('button.getting-started-step', { hasText: title });
}

/** Whether the walkthrough shows the step as done (VS Code ticks it when its completion event fires). */
export async function walkthroughStepDone(wb: Workbench, title: string): Promise<boolean> {
  return (await walkthroughStep(wb, title).first().getAttribute('aria-checked')) === 'true';
}
