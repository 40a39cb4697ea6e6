// CPU seconds (user and system) used by a process, from /proc/<pid>/stat, and by a PostgreSQL
// server with its backends (the postmaster's own, those of the backends it has reaped, and the live
// backends'), so a benchmark can say what each phase cost each process, not only how long it took.
import { readdir, readFile } from 'node:fs/promises';

// Linux's USER_HZ, the unit of /proc's times, is 100 on every architecture Node runs on.
const ticksPerSecond = 100;

interface ProcessStat {
  command: string;
  parentPid: number;
  nice: number;
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
    command: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')),
    parentPid: Number(fields[1]),
    nice: Number(fields[16]),
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

export interface ProcessTicks {
  command: string;
  parentPid: number;
  nice: number;
  // utime + stime, in USER_HZ ticks
  ticks: number;
}

// Every live process's CPU so far, and the machine's busy ticks (all cores, from /proc/stat): two
// snapshots say which processes held the cores in between, and how much went to processes that
// ended meanwhile.
export async function snapshotMachineCpu(): Promise<{
  processes: Map<number, ProcessTicks>;
  busySeconds: number;
}> {
  const processes = new Map<number, ProcessTicks>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readStat(Number(entry));
    if (!stat) continue;
    const { command, parentPid, nice, ownTicks } = stat;
    processes.set(Number(entry), { command, parentPid, nice, ticks: ownTicks });
  }
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice: busy is user, nice,
  // system, irq, softirq and steal (guest time is already counted in user).
  const cpuLine = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  const busyTicks = [0, 1, 2, 5, 6, 7].reduce((sum, index) => sum + (cpuLine[index] ?? 0), 0);
  return { processes, busySeconds: busyTicks / ticksPerSecond };
}
