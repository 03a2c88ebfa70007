// The job store's polling: the scheduler that checks pending jobs on the gateway, and the window roles (which window
// polls which gateway, which one announces a job's end). The store builds it on its first need of it, which comes
// after the first read of the job folder (asynchronous) or with a first submission, so activation loads none of it
// (a file of its own: CHUNKS in scripts/build.mjs).
import type { Disposable } from '../../util/events';
import { PollScheduler, type AuthRequired, type PauseChange, type PollEvent, type PollSchedulerOptions } from './pollScheduler';
import { WindowRoles, type WindowRolesOptions } from './windowRoles';

// Submitting comes with polling (a submitted job is polled), so it loads with it.
export { adoptJob, cancelJob, submitRecord } from './jobSubmission';
export { recordFromRequest, requestFromRecord } from './jobRequest';

export interface JobPolling extends Disposable {
  readonly scheduler: PollScheduler;
  readonly roles: WindowRoles;
}

export interface JobPollingOptions extends Omit<WindowRolesOptions, 'scheduler'> {
  scheduler: PollSchedulerOptions;
  /** Whether the window has focus now (both start out focused). */
  focused: boolean;
  onDidPoll(event: PollEvent): void;
  onDidChangePause(change: PauseChange): void;
  /** After the roles left the origin to a window with a key. */
  onAuthRequired(required: AuthRequired): void;
  onDidChangeLease(origin: string): void;
}

export function startJobPolling(options: JobPollingOptions): JobPolling {
  const scheduler = new PollScheduler(options.scheduler);
  const roles = new WindowRoles({ ...options, scheduler });
  const subscriptions = [
    scheduler.onDidPoll(options.onDidPoll),
    scheduler.onDidChangePause(options.onDidChangePause),
    scheduler.onAuthRequired((required) => {
      roles.park(required.origin);
      options.onAuthRequired(required);
    }),
    roles.onDidChangeLease(options.onDidChangeLease),
  ];
  scheduler.setFocused(options.focused);
  roles.setFocused(options.focused);
  return {
    scheduler,
    roles,
    dispose() {
      roles.dispose();
      scheduler.dispose();
      for (const subscription of subscriptions) subscription.dispose();
    },
  };
}
