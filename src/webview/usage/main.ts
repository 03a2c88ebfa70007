// Entry point of the Usage dashboard (bundled to dist/webview/usage.js, styles to dist/webview/usage.css): spend or
// tokens per day, stacked by model or modality, drawn with uPlot; a table by model, profile, workspace or surface;
// period filters. Every control is a native select or button (keyboard access), colours are the theme's.
import 'uplot/dist/uPlot.min.css';
import './usage.css';
import uPlot from 'uplot';
import { formatCost, formatUsd, GROUPS, parseDashboardUpdate, PERIODS, STACKS, type DashboardRequest, type GroupBy, type Period, type StackBy, type UsageSummary } from '../../usage/core/api';
import { vsCodeApi } from '../vscodeApi';

const vscode = vsCodeApi<DashboardRequest>();

const PERIOD_LABELS: Record<Period, string> = { today: 'Today', '7d': 'Last 7 days', '30d': 'Last 30 days', month: 'This month', year: 'This year', all: 'All time' };
const STACK_LABELS: Record<StackBy, string> = { model: 'By model', modality: 'By modality' };
const GROUP_LABELS: Record<GroupBy, string> = { model: 'Model', profile: 'Profile', workspace: 'Workspace', surface: 'Surface' };
const THEME_COLOURS = ['--vscode-charts-blue', '--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-purple', '--vscode-charts-red', '--vscode-charts-yellow', '--vscode-charts-foreground', '--vscode-charts-lines'];

type Metric = 'cost' | 'tokens';
const saved = (vscode.getState() ?? {}) as Partial<{ period: Period; stackBy: StackBy; groupBy: GroupBy; metric: Metric }>;
const state = {
  period: PERIODS.includes(saved.period as Period) ? (saved.period as Period) : ('30d' as Period),
  stackBy: STACKS.includes(saved.stackBy as StackBy) ? (saved.stackBy as StackBy) : ('model' as StackBy),
  groupBy: GROUPS.includes(saved.groupBy as GroupBy) ? (saved.groupBy as GroupBy) : ('model' as GroupBy),
  metric: saved.metric === 'tokens' ? 'tokens' : ('cost' as Metric),
};

function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function select<T extends string>(label: string, id: string, values: readonly T[], labels: Record<T, string>, value: T, onChange: (v: T) => void): HTMLElement {
  const control = el('select', { id });
  for (const v of values) control.append(el('option', { value: v, textContent: labels[v], selected: v === value }));
  control.addEventListener('change', () => onChange(control.value as T));
  return el('label', { className: 'control' }, `${label} `, control);
}

const root = document.getElementById('app') ?? document.body;
const totalsLine = el('p', { id: 'totals', className: 'totals' });
totalsLine.setAttribute('role', 'status');
const chartBox = el('figure', { id: 'chart', className: 'chart' });
chartBox.setAttribute('role', 'img');
const tableBox = el('div', { id: 'table' });
const notice = el('p', { id: 'notice', className: 'notice', hidden: true });

function query(): void {
  vscode.setState(state);
  vscode.postMessage({ type: 'query', period: state.period, stackBy: state.stackBy, groupBy: state.groupBy });
}

const toolbar = el(
  'div',
  { className: 'toolbar' },
  select('Period', 'period', PERIODS, PERIOD_LABELS, state.period, (v) => ((state.period = v), query())),
  select('Show', 'metric', ['cost', 'tokens'] as const, { cost: 'Spend', tokens: 'Tokens' }, state.metric, (v) => ((state.metric = v), vscode.setState(state), redraw())),
  select('Stack', 'stack', STACKS, STACK_LABELS, state.stackBy, (v) => ((state.stackBy = v), query())),
  select('Table', 'group', GROUPS, GROUP_LABELS, state.groupBy, (v) => ((state.groupBy = v), query())),
  el('button', { id: 'export', textContent: 'Export…', onclick: () => vscode.postMessage({ type: 'export' }) }),
  el('button', { id: 'clear', className: 'secondary', textContent: 'Clear Usage…', onclick: () => vscode.postMessage({ type: 'clear' }) }),
);
root.append(el('h1', { textContent: 'Model Gateway Usage' }), toolbar, totalsLine, notice, chartBox, tableBox);

let current: { summary: UsageSummary; damaged: number; budget?: number; budgetOf?: string; gateway?: string } | undefined;
let plot: uPlot | undefined;

function themeColour(index: number): string {
  const style = getComputedStyle(document.body);
  const name = THEME_COLOURS[index % THEME_COLOURS.length]!;
  return style.getPropertyValue(name).trim() || ['#3794ff', '#d18616', '#89d185', '#b180d7', '#f14c4c', '#cca700', '#cccccc', '#808080'][index % 8]!;
}

const number = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });

function renderTotals(summary: UsageSummary, damaged: number, budget: number | undefined, budgetOf: string | undefined, gateway?: string): void {
  const t = summary.totals;
  const parts = [
    `Spend ${formatCost(t)}`,
    `${number(t.requests)} requests${t.errors ? ` (${number(t.errors)} failed)` : ''}`,
    `${number(t.inputTokens)} tokens in, ${number(t.outputTokens)} out${t.cachedTokens ? `, ${number(t.cachedTokens)} cached` : ''}${t.reasoningTokens ? `, ${number(t.reasoningTokens)} reasoning` : ''}`,
  ];
  if (t.images) parts.push(`${number(t.images)} images`);
  if (t.videoSeconds) parts.push(`${number(t.videoSeconds)} s of video`);
  if (t.speechChars) parts.push(`${number(t.speechChars)} characters spoken`);
  if (t.audioSeconds) parts.push(`${number(t.audioSeconds)} s of audio transcribed`);
  // The totals are every profile's; the budget is one profile's (the window's), so it says whose.
  if (budget !== undefined) parts.push(budgetOf === undefined ? `monthly budget ${formatUsd(budget)}` : `monthly budget of "${budgetOf}" ${formatUsd(budget)}`);
  // The gateway's own figures for the key (every machine's use of it), labelled as the gateway's by the host.
  if (gateway !== undefined) parts.push(gateway);
  totalsLine.textContent = parts.join(' · ');
  totalsLine.dataset.cost = String(t.cost);
  totalsLine.dataset.requests = String(t.requests);
  const notes: string[] = [];
  if (t.unknownCost > 0) notes.push(`${number(t.unknownCost)} requests have no known price: their cost is not in the sums (set modelGateway.prices to fill it in).`);
  if (damaged > 0) notes.push(`${number(damaged)} damaged ledger lines were set aside and are not counted.`);
  notice.textContent = notes.join(' ');
  if (damaged > 0) notice.append(' ', el('button', { className: 'secondary', textContent: 'Show Damaged Lines', onclick: () => vscode.postMessage({ type: 'openDamaged' }) }));
  notice.hidden = notes.length === 0;
}

function redraw(): void {
  if (!current) return;
  const { summary } = current;
  const metric = state.metric;
  // Stacked bars: each series is drawn as the running sum of itself and those after it, tallest first, so each
  // band shows its own part; the legend and the accessible label read the series' own values.
  const own = summary.series.map((s) => s[metric]);
  const stacked = own.map((_, i) => summary.days.map((_, d) => own.slice(i).reduce((sum, values) => sum + values[d]!, 0)));
  const format = (v: number) => (metric === 'cost' ? formatUsd(v) : number(v));
  const sums = own.map((values) => values.reduce((a, b) => a + b, 0));
  const series: uPlot.Series[] = [
    { label: 'Day', value: (_u, v) => (v == null ? PERIOD_LABELS[summary.period] : new Date(v * 1000).toLocaleDateString()) },
    ...summary.series.map((s, i) => ({
      label: s.name,
      stroke: themeColour(i),
      fill: themeColour(i),
      width: 0,
      paths: uPlot.paths.bars!({ size: [0.7, 60], align: 0 }),
      points: { show: false },
      // Not hovering a day: the series' total for the period, so the legend is never a row of blanks.
      value: (_u: uPlot, _v: number | null, _si: number, di: number | null) => format(di == null ? sums[i]! : (own[i]![di] ?? 0)),
    })),
  ];
  const width = Math.max(320, chartBox.clientWidth || root.clientWidth - 32);
  const foreground = getComputedStyle(document.body).getPropertyValue('--vscode-foreground').trim() || '#cccccc';
  const grid = getComputedStyle(document.body).getPropertyValue('--vscode-editorWidget-border').trim() || '#454545';
  const axis = { stroke: foreground, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const options: uPlot.Options = {
    width,
    height: 280,
    series,
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    axes: [{ ...axis }, { ...axis, size: 70, values: (_u, ticks) => ticks.map((v) => (metric === 'cost' ? `$${Number(v.toPrecision(3))}` : number(v))) }],
    legend: { live: true },
    cursor: { points: { show: false } },
  };
  plot?.destroy();
  chartBox.replaceChildren();
  plot = new uPlot(options, [summary.days, ...stacked], chartBox);
  const total = own.reduce((sum, values) => sum + values.reduce((a, b) => a + b, 0), 0);
  chartBox.setAttribute('aria-label', `${metric === 'cost' ? 'Spend' : 'Tokens'} per day over ${summary.days.length} days, ${format(total)} in all, stacked by ${summary.stackBy}: ${summary.series.map((s, i) => `${s.name} ${format(own[i]!.reduce((a, b) => a + b, 0))}`).join(', ')}.`);
  chartBox.dataset.total = String(total);
}

function renderTable(summary: UsageSummary): void {
  const head = el('tr', {}, ...[GROUP_LABELS[summary.groupBy], 'Requests', 'Spend', 'Input tokens', 'Output tokens', 'Images', 'Video seconds', 'Speech characters', 'Audio seconds'].map((text) => el('th', { textContent: text, scope: 'col' })));
  const rows = summary.rows.map((row) =>
    el(
      'tr',
      {},
      el('th', { textContent: row.key, scope: 'row' }),
      ...[number(row.requests), formatCost(row), number(row.inputTokens), number(row.outputTokens), number(row.images), number(row.videoSeconds), number(row.speechChars), number(row.audioSeconds)].map((text) => el('td', { textContent: text })),
    ),
  );
  const table = el('table', {}, el('caption', { textContent: `Usage by ${GROUP_LABELS[summary.groupBy].toLowerCase()}, ${PERIOD_LABELS[summary.period].toLowerCase()}` }), el('thead', {}, head), el('tbody', {}, ...rows));
  tableBox.replaceChildren(summary.rows.length ? table : el('p', { textContent: 'No requests in this period.' }));
}

window.addEventListener('message', (event: MessageEvent) => {
  const update = parseDashboardUpdate(event.data);
  if (!update) return;
  if (update.type === 'problem') {
    notice.textContent = update.message;
    notice.hidden = false;
    return;
  }
  current = update;
  renderTotals(update.summary, update.damaged, update.budget, update.budgetOf, update.gateway);
  redraw();
  renderTable(update.summary);
  document.body.dataset.painted = 'true';
});

let resizeTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => plot?.setSize({ width: Math.max(320, chartBox.clientWidth), height: 280 }), 100);
});

vscode.postMessage({ type: 'ready' });
query();
