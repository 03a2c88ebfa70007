// The one wording of network failures by their Node or undici error code, for the client's errors, result
// downloads and Test Connection alike. No `vscode` import.

/** The `code` of a Node or undici error, or of its `cause`. */
export function errorCodeOf(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

const SENTENCES: Record<string, (where: string) => string> = {
  ECONNREFUSED: (where) => `The connection to ${where} was refused: nothing is listening on that port.`,
  ENOTFOUND: (where) => `Cannot find ${where}: the name does not exist, or your DNS server does not know it.`,
  EAI_AGAIN: (where) => `Cannot look up ${where} right now (a temporary DNS failure).`,
  EHOSTUNREACH: (where) => `There is no network route to ${where}.`,
  ETIMEDOUT: (where) => `Connecting to ${where} timed out.`,
  ECONNRESET: (where) => `The connection to ${where} was closed before an answer came.`,
};
SENTENCES.ENODATA = SENTENCES.ENOTFOUND;
SENTENCES.ENETUNREACH = SENTENCES.EHOSTUNREACH;
SENTENCES.UND_ERR_CONNECT_TIMEOUT = SENTENCES.ETIMEDOUT;
SENTENCES.UND_ERR_SOCKET = SENTENCES.ECONNRESET;
SENTENCES.EPIPE = SENTENCES.ECONNRESET;

/**
 * A sentence saying what the error `code` means for a connection to `where` (for example "the gateway at
 * https://gw.example" or "gw.example:443"), or undefined for a code without one.
 */
export function networkFailureSentence(code: string | undefined, where: string): string | undefined {
  return code !== undefined && Object.hasOwn(SENTENCES, code) ? SENTENCES[code](where) : undefined;
}
