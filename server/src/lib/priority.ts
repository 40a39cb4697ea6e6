// Background work gives way to the API whenever both want a core: the job thread of ROLE=all and
// the main thread of a ROLE=worker process lower their own nice value to 10 (PostgreSQL and the
// API keep theirs). On Linux a thread's nice value is its own (setpriority on the calling thread),
// and threads started afterwards inherit it; elsewhere it would lower the whole process, API
// included, so it is left as it is. On a host of its own the lower priority changes nothing.
import os from 'node:os';

interface Logger {
  warn(details: object, message: string): void;
}

export function lowerThreadPriority(log: Logger): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(os.constants.priority.PRIORITY_BELOW_NORMAL);
  } catch (error) {
    log.warn({ err: error }, 'background work kept its priority');
  }
}
