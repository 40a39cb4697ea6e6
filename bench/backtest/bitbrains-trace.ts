// Reads one VM of the Bitbrains GWA-T-12 format (../shared/backtest-memory/SOURCE.md): a header,
// then fields split by `;` and a tab, the timestamp in seconds, CPU in % of the VM's provisioned
// cores, memory used in KB. Laid on a regular 5-minute grid from the first timestamp, as the judge
// reads it (../shared/backtest-memory/README.md): a reading goes to its nearest step, a step without
// one repeats the one before.
export interface BitbrainsTrace {
  cores: number;
  // Busy vCPUs and used GiB at each 5-minute step.
  cpuVcpus: Float64Array;
  memoryGiB: Float64Array;
}

const stepSeconds = 300;
const kibPerGib = 1_048_576;

export function parseBitbrainsTrace(text: string): BitbrainsTrace {
  const [, ...lines] = text.trim().split(/\r?\n/);
  const rows = lines
    .map((line) => line.split(';').map((field) => field.trim()))
    .filter((fields) => fields.length >= 7 && fields[0] !== '');
  if (rows.length === 0) throw new Error('the trace holds no readings');
  const firstSeconds = Number(rows[0]![0]);
  const lastStep = Math.round((Number(rows.at(-1)![0]) - firstSeconds) / stepSeconds);
  const cpuVcpus = new Float64Array(lastStep + 1).fill(Number.NaN);
  const memoryGiB = new Float64Array(lastStep + 1).fill(Number.NaN);
  let cores = 0;
  for (const fields of rows) {
    const step = Math.round((Number(fields[0]) - firstSeconds) / stepSeconds);
    if (step < 0 || step > lastStep) continue;
    cores = Math.max(cores, Number(fields[1]));
    cpuVcpus[step] = (Number(fields[4]) / 100) * Number(fields[1]);
    memoryGiB[step] = Number(fields[6]) / kibPerGib;
  }
  for (let step = 1; step <= lastStep; step += 1) {
    if (Number.isNaN(cpuVcpus[step]!)) cpuVcpus[step] = cpuVcpus[step - 1]!;
    if (Number.isNaN(memoryGiB[step]!)) memoryGiB[step] = memoryGiB[step - 1]!;
  }
  return { cores, cpuVcpus, memoryGiB };
}
