// A task that callers may ask for while it runs: they share the run, and it runs once more afterwards, so the last
// caller always sees a pass that started after its call (and a burst of calls costs two passes, not one each).
export class Rerun {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly task: () => Promise<void>,
    /** Checked before each extra pass: true ends the loop (a disposed owner). */
    private readonly stopped: () => boolean = () => false,
  ) {}

  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.task();
      } while (this.again && !this.stopped());
    })().finally(() => (this.running = undefined));
    return this.running;
  }
}
