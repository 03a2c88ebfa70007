// Which extra headers a request carries. A profile (or the modelGateway.requestHeaders setting, for Default) names
// its headers; their values are kept in SecretStorage with the key (auth/core/apiKeyStore.ts). A value still written
// in the profile or the setting (not yet moved there) is newer than a stored one and wins. A header with no value
// anywhere (an imported profile not yet filled in) is not sent at all: an empty api-key header is a failed login
// that says nothing about why.

export interface SendableHeaders {
  headers: Record<string, string>;
  /** Names with no value: not sent until the user fills them in. */
  unfilled: string[];
}

export function sendableHeaders(named: Readonly<Record<string, string>>, stored: Readonly<Record<string, string>>): SendableHeaders {
  const headers: Record<string, string> = {};
  const unfilled: string[] = [];
  for (const [name, inline] of Object.entries(named)) {
    const value = inline !== '' ? inline : Object.hasOwn(stored, name) ? stored[name] : '';
    if (value !== '') headers[name] = value;
    else unfilled.push(name);
  }
  return { headers, unfilled };
}
