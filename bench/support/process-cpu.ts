// CPU seconds (user and system) used by a process, from /proc/<pid>/stat, and by a PostgreSQL
// server with its backends (the postmaster's own, those of the backends it has reaped, and the live
// backends'), so a benchmark can say what each phase cost each process, not only how long it took.
import { readdir, readFile } from 'node:fs/promises';

// Linux's USER_HZ, the unit of /proc's times, is 100 on every architecture Node runs on.
const ticksPerSecond = 100;

interface ProcessStat {
  parentPid: number;
  // utime + stime
  ownTicks: number;
  // cutime + cstime: children that ended and were waited for
  reapedChildrenTicks: number;
}

async function readStat(pid: number): Promise<ProcessStat | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  // The command name (field 2) is in parentheses and may hold spaces: fields are counted after it.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    parentPid: Number(fields[1]),
    ownTicks: Number(fields[11]) + Number(fields[12]),
    reapedChildrenTicks: Number(fields[13]) + Number(fields[14]),
  };
}

export async function readCpuSeconds(pid: number): Promise<number> {
  const stat = await readStat(pid);
  return stat ? stat.ownTicks / ticksPerSecond : 0;
}

// The PostgreSQL server listening on `port` (the postmaster started with `-p <port>`), if any.
export async function findPostgresServer(port: number): Promise<number | undefined> {
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    const words = commandLine.split('\0');
    const portAt = words.indexOf('-p');
    if (portAt >= 0 && words[portAt + 1] === String(port) && words.includes('-D')) return Number(entry);
  }
  return undefined;
}

// The postmaster's CPU with every backend's, live or ended.
export async function readServerCpuSeconds(postmasterPid: number): Promise<number> {
  const postmaster = await readStat(postmasterPid);
  if (!postmaster) return 0;
  let ticks = postmaster.ownTicks + postmaster.reapedChildrenTicks;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readStat(Number(entry));
    if (stat?.parentPid === postmasterPid) ticks += stat.ownTicks;
  }
  return ticks / ticksPerSecond;
}

// Seconds the process's threads spent runnable but waiting for a core (/proc/<pid>/task/*/schedstat,
// second field, in ns): how long the scheduler kept it off the CPU while it had work. Threads that
// ended are not counted.
export async function readRunQueueWaitSeconds(pid: number): Promise<number> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  let nanoseconds = 0;
  for (const task of tasks) {
    const text = await readFile(`/proc/${pid}/task/${task}/schedstat`, 'utf8').catch(() => '');
    nanoseconds += Number(text.split(' ')[1] ?? 0) || 0;
  }
  return nanoseconds / 1e9;
}
