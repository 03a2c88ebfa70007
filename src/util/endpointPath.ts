// The one rule for an endpoint path a user configures below the gateway's base URL. Browser-safe.

/** Why `path` cannot be used as an endpoint path, or undefined when it can: `/a/b`, no dot segments, query or fragment. */
export function endpointPathProblem(path: string): string | undefined {
  if (!/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/.test(path)) return 'it must start with "/" and hold only URL path characters (no query or fragment).';
  if (path.split('/').some((segment) => segment === '.' || segment === '..' || /^(%2e|\.){1,2}$/i.test(segment))) return 'it must not have "." or ".." segments.';
  if (path.includes('//')) return 'it must not have empty segments ("//").';
  return undefined;
}
