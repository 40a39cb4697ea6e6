// Background work gives way to the API whenever both want a core. A ROLE=worker process runs every
// thread at nice 10: its main thread, V8's platform workers (its garbage collection) and libuv's
// pool. ROLE=all runs its job thread at nice 10; the platform workers there also collect the API's
// garbage, so they keep their nice value, as the API's main thread does (lowering them was measured
// and not kept: bench/README.md, round 9). PostgreSQL keeps its own. On Linux a thread's nice value
// is its own (setpriority on a thread id), and threads started afterwards inherit their creator's;
// elsewhere it would lower the whole process, API included, so it is left as it is. On a host of its
// own the lower priority changes nothing.
import { existsSync, readdirSync } from 'node:fs';
import os from 'node:os';

interface Logger {
  warn(details: object, message: string): void;
}

const background = os.constants.priority.PRIORITY_BELOW_NORMAL;

// The calling thread (the job thread of ROLE=all).
export function lowerThreadPriority(log: Logger): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(background);
  } catch (error) {
    log.warn({ err: error }, 'background work kept its priority');
  }
}

// Every thread of this process (a ROLE=worker process, which serves no API).
export function lowerProcessPriority(log: Logger): void {
  if (process.platform !== 'linux') return;
  for (const entry of readdirSync('/proc/self/task')) {
    try {
      os.setPriority(Number(entry), background);
    } catch (error) {
      // A thread that ended meanwhile is no longer there to lower.
      if (existsSync(`/proc/self/task/${entry}`))
        log.warn({ err: error }, 'background work kept its priority');
    }
  }
}
