// `data:` URLs from untrusted answers (a gateway's images), split without a regex: the header is looked for only in
// the first characters, so a multi-megabyte URL without a comma costs one bounded scan. Browser-safe.

/** The longest header (`data:<type>;<params>,`) looked at; real ones are a few dozen characters. */
const MAX_HEADER_CHARS = 256;

export interface DataUrlParts {
  /** Lower case, parameters removed; '' when the URL names none. */
  mediaType: string;
  /** True when the last parameter is `base64`. */
  base64: boolean;
  /** Where the data starts (after the comma). */
  dataStart: number;
}

/** The parts of a `data:` URL, or undefined when `text` is not one (or its header is not within the first characters). */
export function splitDataUrl(text: string): DataUrlParts | undefined {
  if (text.length < 6 || text.slice(0, 5).toLowerCase() !== 'data:') return undefined;
  const head = text.slice(5, 5 + MAX_HEADER_CHARS);
  const comma = head.indexOf(',');
  if (comma < 0) return undefined;
  const params = head.slice(0, comma).split(';');
  const last = params.length > 1 ? params[params.length - 1].trim().toLowerCase() : '';
  return { mediaType: params[0].trim().toLowerCase(), base64: last === 'base64', dataStart: 5 + comma + 1 };
}
