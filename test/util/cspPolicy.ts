// What a Content-Security-Policy means, not how it is spelled: its directives parsed as a browser does (the first of
// a repeated directive wins; a missing one falls back), and the problems a webview page's policy must not have.

export type Policy = ReadonlyMap<string, readonly string[]>;

/** The directives by name (lower case), each with its source list; `repeated` names the ones given twice. */
export function parseCsp(text: string): { policy: Policy; repeated: string[] } {
  const policy = new Map<string, string[]>();
  const repeated: string[] = [];
  for (const part of text.split(';')) {
    const [name, ...sources] = part.trim().split(/[\t\n\f\r ]+/).filter((t) => t !== '');
    if (!name) continue;
    const key = name.toLowerCase();
    if (policy.has(key)) repeated.push(key);
    else policy.set(key, sources);
  }
  return { policy, repeated };
}

const FALLBACKS: Readonly<Record<string, readonly string[]>> = {
  'script-src-elem': ['script-src', 'default-src'],
  'script-src-attr': ['script-src', 'default-src'],
  'style-src-elem': ['style-src', 'default-src'],
  'style-src-attr': ['style-src', 'default-src'],
  'frame-src': ['child-src', 'default-src'],
  'worker-src': ['child-src', 'script-src', 'default-src'],
};

/** The sources a kind of load is checked against: its own directive, else the one it falls back to. */
export function effective(policy: Policy, name: string): readonly string[] | undefined {
  for (const candidate of [name, ...(FALLBACKS[name] ?? ['default-src'])]) {
    const sources = policy.get(candidate);
    if (sources) return sources;
  }
  return undefined;
}

const NONCE = /^'nonce-[A-Za-z0-9+/=_-]+'$/;
const isNone = (sources: readonly string[] | undefined) => sources !== undefined && sources.length === 1 && sources[0].toLowerCase() === "'none'";

export interface PageRules {
  /** The webview's resource root (`webview.cspSource`: one or more sources, which may carry a wildcard VS Code chose). */
  cspSource: string;
  /** The page runs its own scripts (each with the nonce); else it may run none. */
  scripts: boolean;
  /**
   * Worker scripts the page fetches (connect-src must name exactly these) to start from `blob:` URLs (worker-src must
   * be exactly blob:); without them both must be 'none'.
   */
  workerScripts?: readonly string[];
}

/** Everything wrong with a webview page's policy; empty when it holds. */
export function cspProblems(text: string, rules: PageRules): string[] {
  const { policy, repeated } = parseCsp(text);
  const root = rules.cspSource.split(/\s+/).filter((s) => s !== '');
  const problems = repeated.map((name) => `${name} is given twice (the browser ignores the second)`);
  if (!isNone(policy.get('default-src'))) problems.push("default-src is not 'none'");
  for (const name of ['script-src', 'script-src-elem', 'script-src-attr']) {
    const sources = effective(policy, name) ?? [];
    const loose = sources.filter((s) => !NONCE.test(s) && s.toLowerCase() !== "'none'");
    if (loose.length > 0) problems.push(`${name} allows ${loose.join(' ')} (only a nonce may run script)`);
  }
  const scripts = (effective(policy, 'script-src-elem') ?? []).some((s) => NONCE.test(s));
  if (rules.scripts && !scripts) problems.push('script-src requires no nonce: the page\'s own scripts would not run');
  if (!rules.scripts && scripts) problems.push('script-src allows a script on a page that has none');
  const workers = rules.workerScripts ?? [];
  for (const name of ['connect-src', 'frame-src', 'worker-src', 'object-src', 'manifest-src', 'child-src']) {
    const sources = effective(policy, name);
    if (workers.length > 0 && name === 'connect-src') {
      if ((sources ?? []).join(' ') !== workers.join(' ')) problems.push(`connect-src is not exactly the worker scripts (${(sources ?? []).join(' ')})`);
    } else if (workers.length > 0 && name === 'worker-src') {
      if ((sources ?? []).join(' ') !== 'blob:') problems.push(`worker-src is not exactly blob: (${(sources ?? []).join(' ')})`);
    } else if (!isNone(sources)) {
      problems.push(`${name} is not 'none'`);
    }
  }
  // Neither falls back to default-src: each must say 'none' itself.
  for (const name of ['base-uri', 'form-action']) if (!isNone(policy.get(name))) problems.push(`${name} is not 'none'`);
  for (const name of ['style-src', 'style-src-elem', 'style-src-attr', 'img-src', 'media-src', 'font-src']) {
    for (const source of effective(policy, name) ?? []) {
      const lower = source.toLowerCase();
      const allowed =
        root.includes(source) ||
        lower === "'none'" ||
        NONCE.test(source) ||
        (!name.startsWith('style') && (lower === 'data:' || lower === 'blob:' || /^https?:\/\/[a-z0-9.-]+(:\d+)?$|^https?:\/\/\[[0-9a-f:.]+\](:\d+)?$/i.test(source)));
      if (!allowed) problems.push(`${name} allows ${source}`);
    }
  }
  return problems;
}
