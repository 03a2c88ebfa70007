// `npm run check:layering`: prints each feature's outside (the api.ts it offers and the ones it uses) and the state
// of the layering rules: imports past an api.ts, file circles, the UI seam and bare requires. The same rules as
// the layering unit test (layering.ts); exits non-zero when a rule is broken beyond its allowlist.
import { bareRequires, crossFeatureViolations, fileCircles, impureApis, loadSources, outsides, PENDING_SERVICE_SPLIT, seamBypasses, SEAM_BYPASS_TODAY, SHARED_LAYERS, sourceGraph } from './layering';

const files = loadSources();
const graph = sourceGraph(files);
const lines: string[] = [];
let broken = 0;
const problem = (text: string): void => {
  broken++;
  lines.push(`  ✗ ${text}`);
};

lines.push(`Features (shared layers, not features: ${SHARED_LAYERS.join(', ')}; composition root: extension.ts)`);
for (const { feature, offers, uses, pending } of outsides(files, graph)) {
  lines.push(`  ${feature}`);
  lines.push(`    offers: ${offers ?? '(nothing)'}`);
  lines.push(`    uses:   ${uses.length ? uses.join(', ') : '(no other feature)'}`);
  for (const p of pending) lines.push(`    pending the services split: ${p}`);
}

lines.push('Imports past an api.ts');
const pendingImports: readonly string[] = PENDING_SERVICE_SPLIT.imports;
const cross = crossFeatureViolations(graph);
for (const e of cross.filter((x) => !pendingImports.includes(x))) problem(e);
lines.push(`  ${cross.length} in all, ${cross.filter((x) => pendingImports.includes(x)).length} allowed until the media and videos services split`);
for (const e of impureApis(files, graph)) problem(e);

lines.push('File circles (type-only imports included)');
const circles = fileCircles(graph.edges);
const pendingCircle = (c: string[]) => PENDING_SERVICE_SPLIT.circles.some((folder) => c.every((p) => p.startsWith(`${folder}/`)));
for (const c of circles) (pendingCircle(c) ? (t: string) => lines.push(`  pending the services split: ${t}`) : problem)(c.join(' ⇄ '));
lines.push(`  ${circles.length} circle(s), ${circles.filter(pendingCircle).length} allowed until the media and videos services split`);

lines.push('The UI seam (vscode.window.show*, withProgress, createQuickPick, createInputBox only under src/ui/vscode/)');
const seam = seamBypasses(files);
const seamAllowed: readonly string[] = SEAM_BYPASS_TODAY;
for (const [file, count] of seam) (seamAllowed.includes(file) ? (t: string) => lines.push(`  still to move: ${t}`) : problem)(`${file}: ${count}`);
lines.push(`  ${[...seam.values()].reduce((a, b) => a + b, 0)} calls in ${seam.size} files still bypass the seam`);

lines.push("Files loaded on first use (only lazy(() => require('./file')))");
const requires = bareRequires(files);
const requiresAllowed: readonly string[] = PENDING_SERVICE_SPLIT.requires;
for (const file of requires) (requiresAllowed.includes(file) ? (t: string) => lines.push(`  pending the services split: ${t}`) : problem)(file);

lines.push(broken === 0 ? 'Layering: every rule holds (within its allowlist).' : `Layering: ${broken} problem(s).`);
console.log(lines.join('\n'));
process.exitCode = broken === 0 ? 0 : 1;
