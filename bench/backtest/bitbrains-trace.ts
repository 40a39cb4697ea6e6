// Reads one VM of the Bitbrains GWA-T-12 format (../shared/backtest-memory/SOURCE.md): a header,
// then fields split by `;` and a tab, the timestamp in seconds, CPU in % of the VM's provisioned
// cores, memory used in KB. Laid on a regular 5-minute grid from the first timestamp, as the judge
// reads it (../shared/backtest-memory/README.md): a step every 5 minutes from the first reading, a
// step without one repeating the one before.
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
  // Walked reading by reading: a gap of g seconds holds round(g / 300) steps, the ones before the
  // next reading repeating the last (as SOURCE.md counts a VM's missing steps).
  const cpu: number[] = [];
  const memory: number[] = [];
  let cores = 0;
  let previousSeconds = Number.NaN;
  for (const fields of rows) {
    const seconds = Number(fields[0]);
    const steps = Number.isNaN(previousSeconds)
      ? 1
      : Math.max(1, Math.round((seconds - previousSeconds) / stepSeconds));
    for (let missing = 1; missing < steps; missing += 1) {
      cpu.push(cpu.at(-1)!);
      memory.push(memory.at(-1)!);
    }
    cores = Math.max(cores, Number(fields[1]));
    cpu.push((Number(fields[4]) / 100) * Number(fields[1]));
    memory.push(Number(fields[6]) / kibPerGib);
    previousSeconds = seconds;
  }
  const cpuVcpus = Float64Array.from(cpu);
  const memoryGiB = Float64Array.from(memory);
  return { cores, cpuVcpus, memoryGiB };
}
