// UI adapter: shows an ErrorAdvice as a notification whose buttons run the advised commands.
import * as vscode from 'vscode';
import type { ErrorAdvice } from '../core/errorAdvice';

export async function showAdvice(advice: ErrorAdvice, severity: 'error' | 'warning' = 'error'): Promise<void> {
  const show = severity === 'error' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
  const choice = await show(advice.message, ...advice.actions.map((a) => a.title));
  const action = advice.actions.find((a) => a.title === choice);
  if (action) await vscode.commands.executeCommand(action.command, ...(action.args ?? []));
}
