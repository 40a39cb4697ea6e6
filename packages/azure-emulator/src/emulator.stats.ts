export const callKinds = [
  'discovery',
  'token',
  'arm-read',
  'arm-write',
  'metrics',
  'getBatch',
  'prices',
] as const;
export type CallKind = (typeof callKinds)[number];

export interface EmulatorStats {
  /** Calls received, by kind, including those answered with an error. */
  readonly calls: Record<CallKind, number>;
  /** 429 answers sent. */
  throttled: number;
  /** Answers replaced by an injected server error. */
  faultsInjected: number;
}

export function createStats(): EmulatorStats {
  return {
    calls: Object.fromEntries(callKinds.map((kind) => [kind, 0])) as Record<CallKind, number>,
    throttled: 0,
    faultsInjected: 0,
  };
}

export function resetStats(stats: EmulatorStats): void {
  for (const kind of callKinds) stats.calls[kind] = 0;
  stats.throttled = 0;
  stats.faultsInjected = 0;
}
