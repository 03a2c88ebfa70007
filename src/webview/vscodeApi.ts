// The page's handle on VS Code, typed by the page's own protocol: what it posts to the host, and its saved state.
// VS Code hands it out once per page, so each page's entry takes it once, at its start.

export interface VsCodeApi<Request> {
  postMessage(message: Request): void;
  setState(state: unknown): void;
  getState(): unknown;
}

declare function acquireVsCodeApi(): VsCodeApi<unknown>;

export function vsCodeApi<Request>(): VsCodeApi<Request> {
  return acquireVsCodeApi() as VsCodeApi<Request>;
}
