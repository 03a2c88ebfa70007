// The attachments waiting to go with the next message of one chat. Owns that list and says when it changes;
// taking them for a message empties it.
import { ATTACHMENT_LIMITS, type Attachment } from '../../../chatProtocol/attachments';
import { Emitter, type Disposable, type Event } from '../../../util/events';
import { applyTrim, type TrimPlan } from './trim';

export type AddResult = 'added' | 'duplicate' | 'full';

export class ContextTray implements Disposable {
  private items: Attachment[] = [];
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;

  get attachments(): readonly Attachment[] {
    return this.items;
  }

  /** The same text (path and range) or the same image is attached once. */
  add(attachment: Attachment): AddResult {
    if (this.items.some((a) => sameContent(a, attachment))) return 'duplicate';
    if (this.items.length >= ATTACHMENT_LIMITS.perTurn) return 'full';
    this.items = [...this.items, attachment];
    this.changed.fire();
    return 'added';
  }

  remove(id: string): boolean {
    const before = this.items.length;
    this.items = this.items.filter((a) => a.id !== id);
    if (this.items.length === before) return false;
    this.changed.fire();
    return true;
  }

  apply(plan: TrimPlan): void {
    if (plan.kind === 'none') return;
    this.items = applyTrim(this.items, plan);
    this.changed.fire();
  }

  /** The attachments for the message being sent (those `which` picks, else all); the rest stay. */
  take(which: (a: Attachment) => boolean = () => true): Attachment[] {
    const taken = this.items.filter(which);
    if (taken.length === 0) return [];
    this.items = this.items.filter((a) => !which(a));
    this.changed.fire();
    return taken;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function sameContent(a: Attachment, b: Attachment): boolean {
  if (a.kind === 'image' || b.kind === 'image') return a.kind === 'image' && b.kind === 'image' && a.data === b.data;
  return a.source === b.source && a.path === b.path && a.startLine === b.startLine && a.endLine === b.endLine && a.text === b.text;
}
