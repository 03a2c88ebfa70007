// The types of the one vocabulary of failures (failureKind.ts names a failure, failureClassifier.ts holds the rules).

/**
 * The one vocabulary of failures. `budget`: a spending limit on the key, user or team was reached (LiteLLM sends it
 * as a 429, but waiting never helps); `credits`: the account has no credit left (OpenRouter's 402, OpenAI's
 * `insufficient_quota`); `moderation`: the gateway refused the content. `upstream`: the gateway reported an error
 * inside a 200 answer that says nothing more; `other`: anything that is not a gateway failure at all.
 */
export type FailureKind =
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'rate_limit'
  | 'budget'
  | 'credits'
  | 'moderation'
  | 'server'
  | 'bad_request'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'interrupted'
  | 'upstream'
  | 'bad_response'
  | 'other';

/** The fields of a failure that every feature reads, taken by shape so that test fakes and plain errors work. */
export interface ErrorFields {
  status?: number;
  code?: string;
  /** The server's `error.type` (LiteLLM's `budget_exceeded`, OpenAI's `insufficient_quota`…). */
  type?: string;
  message: string;
  retryAfterMs?: number;
  requestId?: string;
  outcomeUnknown?: boolean;
  /** A reply was cut short and the text received before the failure is kept (a GatewayError's `partial`). */
  partialKept?: boolean;
  /** The gateway itself reported it (an HTTP error body or an error inside the stream), not the transport. */
  fromServer?: boolean;
  /** A GatewayError (a failure in the gateway's terms), not any thrown value. */
  gatewayError?: boolean;
}
