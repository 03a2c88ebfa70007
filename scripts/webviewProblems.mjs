// Sees what goes wrong inside the workbench's webviews while a test drives them: an uncaught exception, a rejected
// promise nobody handled, or a Content Security Policy violation. The Playwright driver of the host stage
// (vscode-host.mjs) and of the e2e suite (test/e2e/harness/session.ts) install it, so the packaged extension needs
// no hook of its own. Each problem is handed to `onProblem`; the test running at the time fails.

const BINDING = '__modelGatewayWebviewProblem';

/**
 * Runs in every frame as it is created (a Playwright init script, which no page CSP stops). Only webview frames
 * (VS Code serves them from .../webview/browser/pre/) are watched. VS Code writes a webview's HTML into its inner
 * frame with document.open(), which gives that frame a fresh window (and fake.html runs no init script): the outer
 * (host) frame, whose functions live on, arms each new window as soon as open() returns.
 */
function watchFrame(binding, everyFrame) {
  const report = (kind, text) => {
    try {
      const send = window[binding];
      if (typeof send === 'function') send(kind, String(text).slice(0, 1000));
    } catch {
      /* the driver is gone */
    }
  };
  const arm = (target) => {
    if (!target || target.__modelGatewayWatched) return;
    target.__modelGatewayWatched = true;
    target.addEventListener('error', (event) => {
      if (event.constructor.name !== 'ErrorEvent') return;
      // VS Code's own webview shell (pre/index.html) is not the page under test: under load it asserts on a frame or
      // service worker it is swapping out when the extension sets new HTML ('Found unexpected null'), and its
      // ResizeObserver reports a loop notice when a video resizes. Errors from the page's own scripts still count.
      if (String(event.filename).includes('/webview/browser/pre/index.html')) return;
      report('uncaught exception', `${event.message} (${event.filename}:${event.lineno})`);
    });
    target.addEventListener('unhandledrejection', (event) => report('unhandled rejection', event.reason?.stack ?? event.reason?.message ?? event.reason));
    target.addEventListener(
      'securitypolicyviolation',
      (event) => report('CSP violation', `${event.violatedDirective} blocked ${event.blockedURI || '(inline)'} in ${event.sourceFile || event.documentURI}:${event.lineNumber}`),
      true,
    );
  };
  if (everyFrame) return arm(window);
  if (!location.pathname.includes('/webview/browser/pre/')) return;
  arm(window);
  // The inner frame a webview host page creates: the first time the host's code reaches its window (right after
  // creating it), listen for its document (fake.html) and patch that document's open() and write(), with this
  // frame's functions, to arm each window they give it before its HTML (and the scripts in it) is written.
  const contentWindow = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow');
  const known = new WeakSet();
  Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', {
    configurable: true,
    enumerable: contentWindow.enumerable,
    get() {
      const frame = this;
      const inner = contentWindow.get.call(frame);
      if (inner && !known.has(frame)) {
        known.add(frame);
        inner.addEventListener('DOMContentLoaded', (event) => {
          const doc = event.target;
          const { open, write } = doc;
          doc.open = function (...args) {
            const result = open.apply(doc, args);
            arm(contentWindow.get.call(frame));
            return result;
          };
          doc.write = function (...args) {
            arm(contentWindow.get.call(frame));
            return write.apply(doc, args);
          };
        });
      }
      return inner;
    },
  });
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
