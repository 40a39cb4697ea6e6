// BENCH_CPU_PROFILE=<dir>: a bench writes this thread's CPU profile of its measured work there (open
// it in Chrome's DevTools or summarise it with bench/support/profile-summary.ts). Without it, the
// work runs unprofiled.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Session } from 'node:inspector/promises';

export async function profiled<Result>(name: string, run: () => Promise<Result>): Promise<Result> {
  const directory = process.env.BENCH_CPU_PROFILE;
  if (!directory) return run();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const result = await run();
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  const file = path.join(directory, `${name}.cpuprofile`);
  await writeFile(file, JSON.stringify(profile));
  console.log(`CPU profile of ${name}: ${file}`);
  return result;
}
