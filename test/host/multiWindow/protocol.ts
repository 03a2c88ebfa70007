// What the multi-window test (Node, driving the browser pages) and the agent in each window's extension host say to
// each other over a loopback HTTP channel: the agent asks for its next command and posts the result.

/** The env variable (set on the VS Code server, inherited by every extension host) with the channel's URL. */
export const CONTROL_URL_ENV = 'MODEL_GATEWAY_WINDOWS_CONTROL';
/** The header the agent adds to every request its extension host sends to the simulator, naming the window. */
export const WINDOW_HEADER = 'x-test-window';

export interface JobSummary {
  key: string;
  id?: string;
  prompt: string;
  status: string;
  localState?: string;
}

export interface ChatState {
  sessionId: string;
  turns: Array<{ role: string; content: string }>;
  drafts: string[];
}

export interface WindowState {
  /** This extension host's store holds the simulator's poll lease. */
  polling: boolean;
  focused: boolean;
}

export type Command =
  | { op: 'setup'; apiKey: string; origin: string }
  | { op: 'submit'; prompt: string }
  | { op: 'jobs' }
  | { op: 'state' }
  /** Shows an information message through the API: proves the test sees the notifications a window shows. */
  | { op: 'showMessage'; text: string }
  /** Opens a chat panel over the chat folder `folder` (a new chat, or the saved one `sessionId`); returns its id. */
  | { op: 'chatOpen'; folder: string; sessionId?: string }
  /** Sends a message in the chat opened last, as the webview does, and waits for the reply to finish. */
  | { op: 'chatSend'; text: string }
  /** The chat opened last: its turns, and what the host put back in its input box. */
  | { op: 'chatState' }
  /** Records `count` finished calls at once through this window's usage recorder, each with surface `tag`. */
  | { op: 'usageBurst'; tag: string; count: number }
  /** The usage ledger as this window reads it (every window's files): per `burst-` surface, the records' input tokens sorted, and the damaged lines. */
  | { op: 'usageRead' }
  | { op: 'done' };

export interface Envelope {
  id: number;
  command: Command;
}

export type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** The agent's identity: its window (workspace folder name) and its extension host's pid, new after a reload. */
export interface AgentId {
  window: string;
  pid: number;
}

export interface UsageSeen {
  bursts: Record<string, number[]>;
  damaged: number;
}
