// `npm run check:layering`: prints each feature's outside (the api.ts it offers and the ones it uses) and the state
// of the layering rules: imports past an api.ts, file circles, the UI seam and bare requires. The same rules as
// the layering unit test (layering.ts); exits non-zero when a rule is broken beyond its allowlist.
import { bareRequires, crossFeatureViolations, fileCircles, impureApis, loadSources, outsides, seamBypasses, SHARED_LAYERS, sourceGraph } from './layering';

const files = loadSources();
const graph = sourceGraph(files);
const lines: string[] = [];
let broken = 0;
const problem = (text: string): void => {
  broken++;
  lines.push(`  ✗ ${text}`);
};

lines.push(`Features (shared layers, not features: ${SHARED_LAYERS.join(', ')}; composition root: extension.ts)`);
for (const { feature, offers, uses } of outsides(files, graph)) {
  lines.push(`  ${feature}`);
  lines.push(`    offers: ${offers ?? '(nothing)'}`);
  lines.push(`    uses:   ${uses.length ? uses.join(', ') : '(no other feature)'}`);
}

lines.push('Imports past an api.ts');
const cross = crossFeatureViolations(graph);
for (const e of cross) problem(e);
lines.push(`  ${cross.length} in all`);
for (const e of impureApis(files, graph)) problem(e);

lines.push('File circles (type-only imports included)');
const circles = fileCircles(graph.edges);
for (const c of circles) problem(c.join(' ⇄ '));
lines.push(`  ${circles.length} circle(s)`);

lines.push('The UI seam (vscode.window.show*, withProgress, createQuickPick, createInputBox only under src/ui/vscode/)');
const seam = seamBypasses(files);
for (const [file, calls] of seam) problem(`${file}: ${calls.join(', ')}`);
lines.push(`  ${[...seam.values()].reduce((n, calls) => n + calls.length, 0)} calls in ${seam.size} files bypass the seam`);

lines.push("Files loaded on first use (only lazy(() => require('./file')))");
const requires = bareRequires(files);
for (const file of requires) problem(file);

lines.push(broken === 0 ? 'Layering: every rule holds.' : `Layering: ${broken} problem(s).`);
console.log(lines.join('\n'));
process.exitCode = broken === 0 ? 0 : 1;
