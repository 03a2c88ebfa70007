// The one credential detector: files that usually hold credentials, judged by name and by content, and text that
// holds a credential. Attaching such a file to a chat sends it to the gateway, so it needs the user's explicit
// confirmation (never a silent refusal: sometimes a sample .env is exactly what the question is about). Names are
// looked up in tables (no pattern matching on the name); content is scanned with fixed-prefix patterns whose
// repetitions are bounded character classes of fixed or bounded length, so a scan is linear in the text.

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
const SECRET_SUFFIXES = ['.tfvars', '.tfvars.json', '.pem', '.key', '.p8', '.p12', '.pfx', '.jks', '.keystore', '.asc', '.gpg', '.kdbx', '.ppk', '.tfstate', '.tfstate.backup', '.kubeconfig', '.ovpn'];

/** SSH key files: `id_rsa`, `id_ed25519_sk`, `id_rsa_github`, `id_ecdsa.pub` (but not `id_rsa_test.go`). */
const SSH_KEY_PREFIXES = ['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519'];

/** Folders whose every file is a credential or configuration for one (lower case). */
const SECRET_FOLDERS = new Set(['.ssh', '.aws', '.gnupg', '.docker', '.kube', '.azure']);

const SAMPLE_ENV = new Set(['.env.example', '.env.sample', '.env.template', '.env.dist', '.env.defaults']);
const SECRET_FILE_EXTENSIONS = ['.json', '.yaml', '.yml', '.toml', '.ini', '.env'];
/** Endings of an editor's or a user's copy of a file (`.pypirc.bak`, `.env~`): the copy holds what the file held. */
const BACKUP_SUFFIXES = ['.bak', '.old', '.orig', '.backup', '.save', '.swp', '.tmp', '~'];

function isSecretName(name: string): boolean {
  if (isSecretOriginal(name)) return true;
  const backup = BACKUP_SUFFIXES.find((suffix) => name.endsWith(suffix) && name.length > suffix.length);
  return backup !== undefined && isSecretOriginal(name.slice(0, -backup.length));
}

function isSecretOriginal(name: string): boolean {
  if (SECRET_NAMES.has(name)) return true;
  if (name.startsWith('.env.')) return !SAMPLE_ENV.has(name);
  if (SECRET_SUFFIXES.some((suffix) => name.endsWith(suffix) && name.length > suffix.length)) return true;
  for (const prefix of SSH_KEY_PREFIXES) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    if (!rest.includes('.') || rest.endsWith('.pub')) return true;
  }
  // Google's OAuth client download: client_secret.json, client_secret_<id>.apps.googleusercontent.com.json.
  if (name.startsWith('client_secret') && name.endsWith('.json')) return true;
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
 * Credentials recognisable by their shape. Each pattern is a literal prefix and bounded character classes (a
 * lookbehind of one character keeps `task-…` from reading as `sk-…`), so the engine never backtracks more than the
 * classes' bounds at any position.
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
  // An .npmrc's token of the older kind: a UUID (or an npm_ token) right after `_authToken=`.
  { kind: 'an npm token', pattern: /_authToken=["']?(?:[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}|npm_[A-Za-z0-9]{36})/ },
  // GitHub's older tokens are 40 hex digits with no prefix: recognised after the word `token` (`token 0f…`, `GITHUB_TOKEN=0f…`).
  { kind: 'a GitHub token', pattern: /(?<![A-Za-z0-9])token[ "':=]{1,4}[0-9a-f]{40}(?![0-9a-f])/i },
  { kind: 'a Google OAuth client secret', pattern: /(?<![A-Za-z0-9_-])GOCSPX-[A-Za-z0-9_-]{28}/ },
  { kind: 'a PyPI token', pattern: /(?<![A-Za-z0-9_-])pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{32}/ },
  // S3-compatible stores (Wasabi, DigitalOcean Spaces, Backblaze, R2, MinIO…) take AWS's configuration names; their
  // secrets have no prefix of their own, so they are recognised by the name before them.
  { kind: 'an S3-style secret key', pattern: /(?<![A-Za-z0-9])(?:secret_access_key|secret-access-key|secretaccesskey)[ "':=]{1,4}[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/i },
  { kind: 'a Hugging Face token', pattern: /(?<![A-Za-z0-9_])hf_[A-Za-z]{34}/ },
];

/** What kind of credential the text holds, if it holds one (the kind only: the secret itself is never repeated). */
export function secretInContent(text: string): string | undefined {
  return SECRET_CONTENT.find(({ pattern }) => pattern.test(text))?.kind;
}
