// An action advice offers (a button under an error): its own file, so the wording files share it without a circle.
export interface AdviceAction {
  title: string;
  command: string;
  args?: unknown[];
}
