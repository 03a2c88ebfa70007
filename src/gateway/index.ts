// The gateway client and everything callers need with it. No `vscode` import anywhere under src/gateway.

export * from './types';
export { GatewayClient, type GatewayClientOptions } from './client';
export { formatRequestLine, type GatewayLogger, type TextLogger, type RequestLogLine } from './requestLog';
export { GatewayError, type GatewayErrorKind, describeErrorBody, detailsFromErrorValue } from './errors';
export { ChatStreamAccumulator, ChatStreamParser, parseToolArguments, type ChoiceSnapshot, type StreamFailure } from './chatStream';
export { SseDecoder, type SseSink, type SseDecoderOptions } from './sse';
export { realClock, sleeperFor, type Clock, type Sleep, type TimerHandle } from '../util/clock';
export { serverRetryDelayMs, defaultBackoffMs, isRetryableStatus } from './retry';
export { resolveProxy, matchesNoProxy } from './proxy';
export { openResult, resolveFinalUrl, ResultFetchError, type OpenResultOptions, type ResultResponse, type ResolvedResult, type ResultCredentials } from './resultFetch';
