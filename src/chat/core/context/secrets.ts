// Files that usually hold credentials, judged by name and by content. Attaching one sends it to the gateway, so it
// needs the user's explicit confirmation (never a silent refusal: sometimes a sample .env is exactly what the
// question is about). Names are looked up in tables (no pattern matching on the name); content is scanned with
// fixed-prefix patterns whose only repetition is one bounded character class, so a scan is linear in the text.

/** Whole file names (lower case). */
const SECRET_NAMES = new Set([
  '.env',
  '.envrc',
  'envrc',
  '.netrc',
  '_netrc',
  '.pgpass',
  'pgpass',
  '.npmrc',
  'npmrc',
  '.pypirc',
  'pypirc',
  '.htpasswd',
  'htpasswd',
  '.git-credentials',
  'git-credentials',
  '.dockercfg',
  '.vault-token',
  'credentials',
  'credentials.json',
  'credentials.yaml',
  'credentials.yml',
  'credentials.csv',
  'application_default_credentials.json',
  'kubeconfig',
]);

/** Endings of file names (lower case). */
const SECRET_SUFFIXES = ['.pem', '.key', '.p8', '.p12', '.pfx', '.jks', '.keystore', '.asc', '.gpg', '.kdbx', '.ppk', '.tfstate', '.tfstate.backup', '.kubeconfig', '.ovpn'];

/** SSH key files: `id_rsa`, `id_ed25519_sk`, `id_rsa_github`, `id_ecdsa.pub` (but not `id_rsa_test.go`). */
const SSH_KEY_PREFIXES = ['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519'];

/** Folders whose every file is a credential or configuration for one (lower case). */
const SECRET_FOLDERS = new Set(['.ssh', '.aws', '.gnupg', '.docker', '.kube', '.azure']);

const SAMPLE_ENV = new Set(['.env.example', '.env.sample', '.env.template', '.env.dist', '.env.defaults']);
const SECRET_FILE_EXTENSIONS = ['.json', '.yaml', '.yml', '.toml', '.ini', '.env'];

function isSecretName(name: string): boolean {
  if (SECRET_NAMES.has(name)) return true;
  if (name.startsWith('.env.')) return !SAMPLE_ENV.has(name);
  if (SECRET_SUFFIXES.some((suffix) => name.endsWith(suffix) && name.length > suffix.length)) return true;
  for (const prefix of SSH_KEY_PREFIXES) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    if (!rest.includes('.') || rest.endsWith('.pub')) return true;
  }
  const stem = name.startsWith('secret') ? 'secret' : name.startsWith('service-account') || name.startsWith('service_account') || name.startsWith('serviceaccount') ? 'service' : undefined;
  if (stem === 'secret') return SECRET_FILE_EXTENSIONS.some((ext) => name.endsWith(ext));
  if (stem === 'service') return name.endsWith('.json');
  return false;
}

/** True when the path's file name (or a folder it is in) looks like it holds secrets. */
export function isSecretPath(path: string): boolean {
  const segments = path.replace(/\\/g, '/').toLowerCase().split('/');
  const name = segments.pop() ?? '';
  return isSecretName(name) || segments.some((folder) => SECRET_FOLDERS.has(folder));
}

/**
 * Credentials recognisable by their shape. Each pattern is a literal prefix and one bounded character class (a
 * lookbehind of one character keeps `task-…` from reading as `sk-…`), so the engine never backtracks more than the
 * class's bound at any position.
 */
const SECRET_CONTENT: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
  { kind: 'a private key', pattern: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY( BLOCK)?-----/ },
  { kind: 'an AWS access key', pattern: /(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Z0-9])/ },
  { kind: 'a GitHub token', pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{60})/ },
  { kind: 'a GitLab token', pattern: /(?<![A-Za-z0-9_])glpat-[A-Za-z0-9_-]{20}/ },
  { kind: 'an OpenAI-style API key', pattern: /(?<![A-Za-z0-9_-])sk-(?:[A-Za-z0-9]{40}|(?:proj|svcacct|admin|ant-api\d\d|ant-admin\d\d)-[A-Za-z0-9_-]{32})/ },
  { kind: 'a Slack token', pattern: /(?<![A-Za-z0-9])xox[abposr]-[0-9]{6}[0-9A-Za-z-]{8}/ },
  { kind: 'a Google API key', pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}/ },
  { kind: 'a Stripe live key', pattern: /(?<![A-Za-z0-9])[sr]k_live_[0-9A-Za-z]{24}/ },
  { kind: 'an npm token', pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}/ },
  { kind: 'a Hugging Face token', pattern: /(?<![A-Za-z0-9_])hf_[A-Za-z]{34}/ },
];

/** What kind of credential the text holds, if it holds one (the kind only: the secret itself is never repeated). */
export function secretInContent(text: string): string | undefined {
  return SECRET_CONTENT.find(({ pattern }) => pattern.test(text))?.kind;
}
