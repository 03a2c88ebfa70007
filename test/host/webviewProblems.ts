// The webview problems (uncaught exceptions, CSP violations) the workbench's driver saw: scripts/vscode-host.mjs
// appends them to the file its environment names, one JSON line each. Under @vscode/test-electron there is no
// driver and no file: nothing is reported.
import * as fs from 'node:fs';

export interface WebviewProblem {
  kind: string;
  text: string;
  url: string;
}

const file = process.env.MODEL_GATEWAY_WEBVIEW_PROBLEMS;
let offset = 0;

/** Whether a driver watches the webviews of this run. */
export const webviewsWatched = !!file;

/** The problems reported since the last call (a test that causes some on purpose claims them). */
export function takeWebviewProblems(): WebviewProblem[] {
  if (!file) return [];
  const text = fs.readFileSync(file, 'utf8');
  // Only whole lines: the driver may be writing one.
  const end = text.lastIndexOf('\n') + 1;
  if (end <= offset) return [];
  const lines = text.slice(offset, end).split('\n').filter(Boolean);
  offset = end;
  return lines.map((line) => JSON.parse(line) as WebviewProblem);
}

export function describeProblems(problems: WebviewProblem[]): string {
  return problems.map((p) => `${p.kind}: ${p.text}`).join('\n');
}
