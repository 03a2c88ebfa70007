// The chat page's markdown worker (its own script, named by the page as `data-worker-markdown`; see main.ts): streaming
// replies are parsed and highlighted there. Until it is up, or if it cannot start, replies render on the page.
import { MarkdownWorker } from '../markdown';

let worker: MarkdownWorker | undefined;

export function startMarkdownWorker(url = document.body.dataset.workerMarkdown): void {
  if (!url) return;
  void MarkdownWorker.load(url).then((loaded) => {
    worker = loaded;
    // A user's panel then renders on the page; in the test build it is a failure the host stage's driver reports.
    if (!loaded && TEST_BUILD) reportError(new Error(`the markdown worker did not start from ${url}`));
  });
}

/** The worker for a reply that starts streaming now, if it is up and well. */
export function markdownWorker(): MarkdownWorker | undefined {
  return worker?.usable ? worker : undefined;
}
