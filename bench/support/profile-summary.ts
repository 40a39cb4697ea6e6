// Summarises a V8 .cpuprofile: the functions with the most self time, and the time under each
// top-level cause (by the first frame of interest on each sample's stack), so a benchmark's profile
// says where the time goes without opening DevTools. Usage: node --import tsx profile-summary.ts <file>
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
const top = Number(process.argv[3] ?? 25);
const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

const selfTime = new Map<number, number>();
profile.samples.forEach((id, index) => {
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
});
const total = [...selfTime.values()].reduce((sum, time) => sum + time, 0);

const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const [id, time] of selfTime) {
  const frame = nodes.get(id)!.callFrame;
  const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + time);
  // Inclusive: each package on the stack counts the sample once.
  const seen = new Set<string>();
  for (let current: number | undefined = id; current !== undefined; current = parents.get(current)) {
    seen.add(packageOf(nodes.get(current)!.callFrame.url));
  }
  for (const name of seen) byPackage.set(name, (byPackage.get(name) ?? 0) + time);
}

console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
print('self time by function', byFunction);
print('inclusive time by package or area', byPackage);

function print(title: string, times: Map<string, number>): void {
  console.log(`\n${title}`);
  for (const [name, time] of [...times].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${((100 * time) / total).toFixed(1).padStart(5)}%  ${name}`);
  }
}

function shortUrl(url: string): string {
  return url.replace(/^.*node_modules\//, '').replace(/^.*\/work\/main\//, '');
}

function packageOf(url: string): string {
  if (!url) return '(native or idle)';
  if (url.startsWith('node:')) return url.split('/')[0]!;
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  const ours = /(server\/src\/[^/]+(?:\/[^/]+)?|packages\/[^/]+|bench)/.exec(url);
  return ours ? ours[1]! : url;
}
