// Screen-reader announcements: streamed text as it completes (polite) and problems (assertive), through two
// visually hidden live regions.
import { el } from './dom';

const KEEP = 20;

export class Announcer {
  private readonly polite = el('div', { class: 'sr-only', attrs: { 'aria-live': 'polite', 'aria-atomic': 'false', 'aria-relevant': 'additions', id: 'live-polite' } });
  private readonly assertive = el('div', { class: 'sr-only', attrs: { 'aria-live': 'assertive', 'aria-atomic': 'true', id: 'live-assertive' } });

  constructor(parent: HTMLElement) {
    parent.append(this.polite, this.assertive);
  }

  say(text: string): void {
    this.append(this.polite, text);
  }

  alert(text: string): void {
    this.assertive.textContent = text;
  }

  private append(region: HTMLElement, text: string): void {
    region.append(el('p', { text }));
    while (region.childElementCount > KEEP) region.firstElementChild?.remove();
  }
}
