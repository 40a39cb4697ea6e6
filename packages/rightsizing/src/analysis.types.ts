// What the engine reads about one virtual machine and what it concludes. The server fills the
// input from PostgreSQL (hourly aggregates and the 1-minute points kept); the backtest fills it from
// the real traces' 5-minute readings. Both go through the same analyseVm.
import type { CreditTerms } from './cpu-credits';
import type { PredictionMethodId } from './prediction-methods';
import type { WasteKind } from './waste/waste.types';

// One metric at a fixed step, oldest first, NaN where nothing was read. `average` and `maximum` are
// the mean and the peak within each step.
export interface MetricSeries {
  startMs: number;
  stepMinutes: number;
  average: Float64Array;
  maximum: Float64Array;
}

export type OsType = 'Linux' | 'Windows';

export interface VmRequirements {
  dataDiskCount: number | null;
  nicCount: number | null;
  usesPremiumDisk: boolean | null;
  usesAcceleratedNetworking: boolean | null;
}

export interface SizeOption {
  name: string;
  family: string;
  vcpus: number;
  memoryGiB: number;
  maxDataDisks: number | null;
  maxNics: number | null;
  hasPremiumIo: boolean;
  hasAcceleratedNetworking: boolean;
  isAvailable: boolean;
  // A burstable size's credit terms when the catalogue carries them (burstable-sizes.ts holds
  // Azure's published figures for the rest).
  credits?: CreditTerms | null;
}

export interface SizePrice {
  hourlyPrice: number;
  currencyCode: string;
  // When the price was read (ISO date), and from where, for the memo.
  readAt: string;
  source: string;
}

export interface ActiveHours {
  start: number;
  end: number;
}

export interface VmAnalysisInput {
  vmId: string;
  currentSize: string;
  region: string;
  osType: OsType;
  // The share of the lookback the VM was running (0..1); a stopped VM costs nothing to analyse.
  runningShare: number;
  activeHours: ActiveHours | null;
  requirements: VmRequirements;
  // CPU percent of the current size. Required; the rest may be missing.
  cpu: MetricSeries;
  // Used memory in GiB (size memory − Azure's available memory): the step's mean and its peak.
  memoryUsedGiB?: MetricSeries;
  // Bytes in and out per step, summed.
  network?: MetricSeries;
  // On a burstable size: Azure Monitor's CPU Credits Remaining (the bank's level at each step).
  cpuCreditsRemaining?: MetricSeries;
  sizes: readonly SizeOption[];
  // Prices for the VM's OS by size name; a size without a price is never proposed.
  prices: ReadonlyMap<string, SizePrice>;
  // The size the engine proposed last time, if still open: kept unless the load really moved.
  previousTargetSize?: string | null;
  now: number;
}

export type VmRecommendationKind = 'resize' | 'shutdown' | 'activeHours';
export const vmRecommendationKinds: readonly VmRecommendationKind[] = ['resize', 'shutdown', 'activeHours'];
export type RecommendationKind = VmRecommendationKind | WasteKind;

export interface EvidencePoint {
  time: number;
  current: number | null;
  projected: number | null;
}

export interface EvidenceSeries {
  metric: 'CPU' | 'Memory';
  threshold: number;
  points: EvidencePoint[];
}

// Where the evidence chart draws its limit lines: the method's CPU and memory limits on the new size
// (100% when nothing is resized).
export interface EvidenceThresholds {
  cpuPct: number;
  memoryPct: number;
}

export interface Proposal {
  kind: VmRecommendationKind;
  predictionMethod: PredictionMethodId;
  currentSize: string;
  targetSize: string | null;
  activeHours: ActiveHours | null;
  recommendation: string;
  memo: string;
  annualCostSavings: number;
  confidence: number;
  // The chart itself is built when someone opens it (buildEvidence), from the same hours.
  thresholds: EvidenceThresholds;
}

export interface VmAnalysis {
  vmId: string;
  predictionMethod: PredictionMethodId;
  // Why nothing was proposed, when nothing was (too little data, no cheaper size, …).
  reason: string | null;
  // Whether the VM could be judged (its size known and priced, enough history): an analysis that
  // could not proposes nothing and withdraws nothing.
  isJudged: boolean;
  proposals: Proposal[];
}
