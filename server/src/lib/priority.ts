// Background work gives way to the API whenever both want a core: the job thread of ROLE=all and
// the main thread of a ROLE=worker process lower their own nice value to 10 (the API and
// PostgreSQL's other backends keep theirs). On Linux a thread's nice value is its own (setpriority on the calling thread),
// and threads started afterwards inherit it; elsewhere it would lower the whole process, API
// included, so it is left as it is. On a host of its own the lower priority changes nothing. The
// PostgreSQL backends serving that work are lowered too where they run on this host
// (lowerBackendPriority).
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';

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

// A query runs in its PostgreSQL backend, a process of its own at the server's priority: niced
// threads alone leave the background work's inserts competing with the API's queries for the
// cores at full priority. Where the server runs on this host and this user may renice it (the
// embedded server, or one started beside Cloudtrim by the same user or with root's rights), each backend of `pool` is lowered to nice 10 as it is first
// used. A backend is recognised as a child of the postmaster named by the server's own data
// directory; anything else (a server elsewhere, another user's) keeps its priority.
export function lowerBackendPriority(pool: Pick<pg.Pool, 'on'>, log: Logger): void {
  if (process.platform !== 'linux') return;
  const lowered = new WeakSet<pg.PoolClient>();
  let hasWarned = false;
  pool.on('acquire', (client) => {
    if (lowered.has(client)) return;
    lowered.add(client);
    // Queued on the client ahead of the query it was acquired for.
    lowerBackend(client).catch((error: unknown) => {
      if (hasWarned) return;
      hasWarned = true;
      log.warn({ err: error }, 'background work kept its database priority');
    });
  });
}

async function lowerBackend(client: pg.PoolClient): Promise<void> {
  // pg_settings hides the data directory from a role that may not read it (a null, not an error).
  const { rows } = await client.query<{ pid: number; dataDirectory: string | null }>(
    `select pg_backend_pid() as pid,
            (select setting from pg_settings where name = 'data_directory') as "dataDirectory"`,
  );
  // Read and set synchronously, so the backend is lowered before the answer to the query the
  // client was acquired for is handled (sent as this answer arrived).
  const { pid, dataDirectory } = rows[0]!;
  if (!dataDirectory) return;
  const postmasterPid = readFirstLine(path.join(dataDirectory, 'postmaster.pid'));
  const stat = readFirstLine(`/proc/${pid}/stat`);
  if (!postmasterPid || !stat) return;
  // Fields after the command name (in parentheses, may hold spaces): state, then the parent's pid.
  const parentPid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
  if (parentPid !== postmasterPid) return;
  // A server already run at a lower priority keeps it.
  if (os.getPriority(pid) < os.constants.priority.PRIORITY_BELOW_NORMAL) {
    os.setPriority(pid, os.constants.priority.PRIORITY_BELOW_NORMAL);
  }
}

function readFirstLine(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').split('\n')[0]?.trim();
  } catch {
    return undefined;
  }
}
