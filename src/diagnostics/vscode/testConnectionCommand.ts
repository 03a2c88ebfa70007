// UI adapter: Model Gateway: Test Connection, and the report's Copy Report and Run Again. Runs every check with a
// progress notification, logs each step, shows the report read-only (connectionReportView.ts) and a one-line
// verdict with the command that fixes the first problem.
import * as vscode from 'vscode';
import type { HandlersFor } from '../../ui/vscode/commands';
import type { REPORT_COMMANDS } from './commands';
import type { GatewayConnections } from '../../gateway/connections';
import { OPEN_LOGS } from '../../ui/core/errorAdvice';
import { resolveProxy } from '../../gateway/proxy';
import type { Clock } from '../../util/clock';
import type { Logger } from '../../util/logger';
import { ConnectionReportView } from './connectionReportView';
import type { ReportDocument } from '../../ui/vscode/reportDocument';
import { lazy } from '../../util/lazy';
import type { UserInterface } from '../../ui/vscode/userInterface';
import type { DiagnosticReport } from '../core/connectionTest';
import type { DialectDecision } from '../../videos/core/api';

// The checks themselves, in their own file, on the first run.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const connectionTest = lazy(() => require('../core/connectionTest') as typeof import('../core/connectionTest'));

export interface TestConnectionDeps {
  connection: GatewayConnections;
  log: Logger;
  clock: Clock;
  /** VS Code's http.proxy, if set. */
  proxySetting(): string | undefined;
  /** The report's document, registered at activation (a restored report tab asks for it first). */
  report: ReportDocument;
  ui: UserInterface;
  /** The video dialect of the active profile and why (the video feature decides it, asking the gateway on first need). */
  dialect?(): Promise<DialectDecision>;
}

export class TestConnectionCommand implements vscode.Disposable {
  private readonly view: ConnectionReportView;

  constructor(private readonly deps: TestConnectionDeps) {
    this.view = new ConnectionReportView(deps.report);
  }

  handlers(): HandlersFor<typeof REPORT_COMMANDS> {
    return {
      testConnection: () => this.run(),
      runConnectionTestAgain: () => this.run(),
      copyConnectionReport: () => this.copyReport(),
    };
  }

  /** Runs every check, shows the report and returns it. */
  async run(): Promise<DiagnosticReport> {
    const { connection, clock, log } = this.deps;
    const { runDiagnostics, createNetworkProbes, renderReport, summarizeReport, fixesFor, dialectStep, withDialectStep } = connectionTest();
    const baseUrl = connection.baseUrl;
    const proxy = baseUrl ? resolveProxy(new URL(baseUrl), this.deps.proxySetting(), process.env) : undefined;
    const report = await this.deps.ui.withProgress(`Testing the connection to ${connection.origin ?? 'the gateway'}…`, async () => {
      const checked = await runDiagnostics({ baseUrl, api: async () => {
        const access = await connection.access();
        return access.ok ? access.api : undefined;
      }, proxy, probes: createNetworkProbes(clock), clock });
      // Asked only once the gateway answered: the probes would fail the same way.
      if (!checked.ok || !this.deps.dialect) return withDialectStep(checked, dialectStep(undefined));
      const decision = await this.deps.dialect().then((d) => ({ d }), (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
      return withDialectStep(checked, 'd' in decision ? dialectStep(decision.d) : dialectStep(undefined, `Not decided: ${decision.error}`));
    });
    log.info(`Connection test of ${baseUrl ?? '(no URL)'}:`);
    for (const step of report.steps) log.info(`  ${step.title}: ${step.status}. ${step.message}${step.suggestion ? ` ${step.suggestion}` : ''}`);
    await this.view.show(renderReport(report));
    const summary = summarizeReport(report);
    if (report.ok) void this.deps.ui.notify('info', summary);
    else this.deps.ui.advise({ kind: 'other', message: summary, actions: [...fixesFor(report), OPEN_LOGS] }, 'warning');
    return report;
  }

  /** Copies the last report's Markdown; resolves with what was copied. */
  async copyReport(): Promise<string | undefined> {
    const text = this.view.text;
    if (text === undefined) {
      void this.deps.ui.notify('info', 'No connection report yet: run "Model Gateway: Test Connection" first.');
      return undefined;
    }
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage('Copied the connection report.', 3000);
    return text;
  }

  dispose(): void {
    this.view.dispose();
  }
}
