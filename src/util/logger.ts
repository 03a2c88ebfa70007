/** Where every feature writes its log: VS Code's LogOutputChannel satisfies it; tests pass a recording one. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
