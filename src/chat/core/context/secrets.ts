// Files that usually hold credentials. Attaching one sends it to the gateway, so it needs the user's explicit
// confirmation (never a silent refusal: sometimes a sample .env is exactly what the question is about).

const SECRET_NAMES = [
  /^\.env(\..+)?$/i, // .env, .env.local, .env.production
  /^\.?envrc$/i,
  /^id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$/i,
  /\.(pem|key|p12|pfx|jks|keystore|asc|gpg|kdbx|ppk)$/i,
  /^\.?(netrc|pgpass|npmrc|pypirc|htpasswd|git-credentials)$/i,
  /^credentials(\.json|\.ya?ml)?$/i,
  /^secrets?(\.[\w-]+)*\.(json|ya?ml|toml|ini|env)$/i,
  /^service[-_]?account.*\.json$/i,
];

const SECRET_FOLDERS = /(^|\/)(\.ssh|\.aws|\.gnupg|\.docker)\//i;

/** True when the path's file name (or a folder it is in) looks like it holds secrets. */
export function isSecretPath(path: string): boolean {
  const normalized = path.replace(/\\/g, '/');
  const name = normalized.split('/').pop() ?? '';
  if (/^\.env\.(example|sample|template|dist)$/i.test(name)) return false;
  return SECRET_NAMES.some((pattern) => pattern.test(name)) || SECRET_FOLDERS.test(normalized);
}
