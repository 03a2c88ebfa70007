// Sees what goes wrong inside the workbench's webviews while a test drives them: an uncaught exception, a rejected
// promise nobody handled, or a Content Security Policy violation. The Playwright driver of the host stage
// (vscode-host.mjs) and of the e2e suite (test/e2e/harness/session.ts) install it, so the packaged extension needs
// no hook of its own. Each problem is handed to `onProblem`; the test running at the time fails.

const BINDING = '__modelGatewayWebviewProblem';

/**
 * Runs in every frame as it is created (a Playwright init script, which no page CSP stops). Only webview frames
 * (VS Code serves them from .../webview/browser/pre/) are watched. VS Code writes a webview's HTML into its inner
 * frame with document.open(), which drops every listener of that document and its window: they are added again
 * right after each open().
 */
function watchFrame(binding, everyFrame) {
  if (!everyFrame && !location.pathname.includes('/webview/browser/pre/')) return;
  const report = (kind, text) => {
    try {
      const send = window[binding];
      if (typeof send === 'function') send(kind, String(text).slice(0, 1000));
    } catch {
      /* the driver is gone */
    }
  };
  const onError = (event) => {
    if (event instanceof ErrorEvent) report('uncaught exception', `${event.message} (${event.filename}:${event.lineno})`);
  };
  const onRejection = (event) => report('unhandled rejection', event.reason instanceof Error ? event.reason.stack ?? event.reason.message : event.reason);
  const onViolation = (event) => report('CSP violation', `${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} in ${event.sourceFile || event.documentURI}:${event.lineNumber}`);
  const listen = () => {
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
    window.addEventListener('securitypolicyviolation', onViolation, true);
  };
  listen();
  const open = Document.prototype.open;
  Document.prototype.open = function (...args) {
    const result = open.apply(this, args);
    if (this === document) listen();
    return result;
  };
}

/**
 * Watches every webview frame of `target` (a Playwright Page or BrowserContext), before its pages load; with
 * `everyFrame`, every frame (the browser stage's test pages). `onProblem({ kind, text, url })` is called for each
 * problem seen.
 */
export async function watchWebviewProblems(target, onProblem, { everyFrame = false } = {}) {
  await target.exposeBinding(BINDING, (source, kind, text) => onProblem({ kind: String(kind), text: String(text), url: source.frame?.url() ?? '' }));
  await target.addInitScript({ content: `(${watchFrame.toString()})(${JSON.stringify(BINDING)}, ${everyFrame});` });
}

/** One line per problem, for a test's failure message. */
export function describeProblems(problems) {
  return problems.map((p) => `${p.kind}: ${p.text}`).join('\n');
}
