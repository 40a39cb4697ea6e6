import { hashToUnit } from '../fleet/noise.hash';
import type { CallKind } from '../emulator.stats';

export interface FaultSettings {
  /** Share of answers (0..1) replaced by a server error. */
  readonly errorRate?: number;
  /** Number of next answers replaced by a server error, before `errorRate` applies. */
  readonly errorCount?: number;
  /** Status of injected errors; 503 by default. */
  readonly errorStatus?: number;
  /** Delay added to every answer, in milliseconds. */
  readonly delayMs?: number;
  /** Which calls are affected; all when omitted. */
  readonly kinds?: readonly CallKind[];
}

export interface FaultDecision {
  readonly delayMs: number;
  readonly errorStatus: number | undefined;
}

const noFault: FaultDecision = { delayMs: 0, errorStatus: undefined };

/** Decides which answers fail or slow down; the error-rate draws are seeded so runs repeat. */
export class FaultInjector {
  private settings: FaultSettings = {};
  private remainingErrors = 0;
  private drawCounter = 0;

  constructor(private readonly seedKey: number) {}

  configure(settings: FaultSettings | undefined): void {
    this.settings = { ...(settings ?? {}) };
    this.remainingErrors = Math.max(0, Math.trunc(settings?.errorCount ?? 0));
    this.drawCounter = 0;
  }

  decide(kind: CallKind): FaultDecision {
    const settings = this.settings;
    if (settings.kinds && !settings.kinds.includes(kind)) return noFault;
    const delayMs = Math.max(0, settings.delayMs ?? 0);
    const errorStatus = settings.errorStatus ?? 503;
    if (this.remainingErrors > 0) {
      this.remainingErrors -= 1;
      return { delayMs, errorStatus };
    }
    const rate = settings.errorRate ?? 0;
    if (rate > 0) {
      this.drawCounter += 1;
      if (hashToUnit(this.seedKey, 0x7a11, this.drawCounter) < rate) return { delayMs, errorStatus };
    }
    return delayMs > 0 ? { delayMs, errorStatus: undefined } : noFault;
  }
}
