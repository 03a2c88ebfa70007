// Which profile a window uses when it opens. A workspace binding ("Use This Profile in This Workspace") wins; it is
// kept in workspaceState, never in workspace settings, so a cloned repository can neither pick a profile nor steer a
// key. Otherwise the window opens with the profile the user last chose (in any window); a window that is open never
// follows another window's switch.
import { DEFAULT_PROFILE_ID } from '../../settings/profile';
import type { Memento } from '../../util/memento';

const WORKSPACE_BINDING = 'modelGateway.profiles.workspaceBinding';
const LAST_CHOSEN = 'modelGateway.profiles.lastChosen';

export interface ProfileChoice {
  readonly id: string;
  /** Whether the id is this workspace's binding. */
  readonly bound: boolean;
}

export function initialProfile(workspace: Memento, global: Memento): ProfileChoice {
  const bound = workspaceBinding(workspace);
  if (bound) return { id: bound, bound: true };
  const last = global.get<unknown>(LAST_CHOSEN);
  return { id: typeof last === 'string' && last ? last : DEFAULT_PROFILE_ID, bound: false };
}

export function workspaceBinding(workspace: Memento): string | undefined {
  const id = workspace.get<unknown>(WORKSPACE_BINDING);
  return typeof id === 'string' && id ? id : undefined;
}

/** Binds the workspace to a profile, or removes the binding (undefined). */
export async function bindWorkspace(workspace: Memento, id: string | undefined): Promise<void> {
  await workspace.update(WORKSPACE_BINDING, id);
}

/** Remembers the user's choice for windows that open later (this one already switched). */
export async function rememberChoice(global: Memento, id: string): Promise<void> {
  await global.update(LAST_CHOSEN, id);
}
