// The one rule for every URL the extension opens, previews or downloads: http or https, and no user name or
// password in it (a credential in a link is either a leak or a phishing trick). Browser-safe.

export type ExternalUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

export function checkExternalUrl(value: unknown): ExternalUrlCheck {
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, reason: 'There is no link.' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: `The link is not a valid URL: ${shorten(value)}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `Refused to open the link: only http and https links are allowed, and this one is a ${url.protocol} link (${shorten(value)}).` };
  }
  if (url.username || url.password) return { ok: false, reason: 'Refused to open the link: it carries a user name or password.' };
  return { ok: true, url };
}

/** The link as a string when it may be opened, else undefined (command:, vscode:, file:, javascript:… stay inert). */
export function safeExternalUrl(href: string): string | undefined {
  const checked = checkExternalUrl(href);
  return checked.ok ? checked.url.toString() : undefined;
}

/** The text, cut to `max` characters with an ellipsis. */
export function shorten(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
