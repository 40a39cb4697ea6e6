export const callKinds = [
  'discovery',
  'token',
  'arm-read',
  'arm-write',
  'metrics',
  'getBatch',
  'prices',
  'costs',
] as const;
export type CallKind = (typeof callKinds)[number];

export interface EmulatorStats {
  /** Calls received, by kind, including those answered with an error. */
  readonly calls: Record<CallKind, number>;
  /** 429 answers sent. */
  throttled: number;
  /** Writes refused with 409 Conflict because another operation was still running on the VM. */
  conflicts: number;
  /** Answers replaced by an injected server error. */
  faultsInjected: number;
  /**
   * Requests sent again (same x-ms-client-request-id, as the SDK's retries keep it) before the
   * Retry-After of their 429 or 503 had passed: throttling the client did not honour.
   */
  retriesBeforeRetryAfter: number;
  /**
   * Writes accepted (PUT, PATCH, DELETE, POST actions), by resource id in lower case: a test asserts
   * a change was made once, or never (`readWriteCount`). Refused writes are not counted.
   */
  readonly writesByResource: Map<string, number>;
}

export function countWrite(stats: EmulatorStats, resourceId: string): void {
  const key = resourceId.toLowerCase();
  stats.writesByResource.set(key, (stats.writesByResource.get(key) ?? 0) + 1);
}

/** Accepted writes to one resource since the start or the last reset. */
export function readWriteCount(stats: EmulatorStats, resourceId: string): number {
  return stats.writesByResource.get(resourceId.toLowerCase()) ?? 0;
}

export function createStats(): EmulatorStats {
  return {
    calls: Object.fromEntries(callKinds.map((kind) => [kind, 0])) as Record<CallKind, number>,
    throttled: 0,
    conflicts: 0,
    faultsInjected: 0,
    retriesBeforeRetryAfter: 0,
    writesByResource: new Map(),
  };
}

export function resetStats(stats: EmulatorStats): void {
  for (const kind of callKinds) stats.calls[kind] = 0;
  stats.throttled = 0;
  stats.conflicts = 0;
  stats.faultsInjected = 0;
  stats.retriesBeforeRetryAfter = 0;
  stats.writesByResource.clear();
}
