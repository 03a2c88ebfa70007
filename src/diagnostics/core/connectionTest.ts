// Everything Test Connection runs, in one module that the build puts in its own file (dist/connectionTest.js),
// loaded when the command first runs rather than at activation.
export { runDiagnostics, type DiagnosticReport } from './diagnostics';
export { createNetworkProbes } from './networkProbes';
export { fixesFor, renderReport, summarizeReport } from './report';
export { dialectStep, withDialectStep } from './dialectStep';
