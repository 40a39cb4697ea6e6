// What the waste finders read about one resource that is not a VM's size (a disk, a public IP, a
// stopped VM, an App Service plan, a SQL database) and what they conclude. The server fills the
// facts from inventory (resource.details, state_since, tags) and the metrics' hourly summaries.
export const wasteKinds = [
  'deleteDisk',
  'deletePublicIp',
  'deallocate',
  'diskTier',
  'deletePlan',
  'planTier',
  'databaseObjective',
] as const;
export type WasteKind = (typeof wasteKinds)[number];

// Deletions are never automated: only a user's APPLY NOW.
export const deletionKinds: ReadonlySet<WasteKind> = new Set(['deleteDisk', 'deletePublicIp', 'deletePlan']);

// One resource as inventory keeps it.
export interface WasteResource {
  armId: string;
  name: string;
  // The ARM type as Azure spells it (any casing).
  type: string;
  region: string;
  sku: string | null;
  // The type's own facts (camelCase, absent when Azure does not say): see the finders.
  details: Readonly<Record<string, unknown>>;
  // Since when the resource has been in its present state (ms), when known.
  stateSince: number | null;
  // True when nothing in Azure dated the state (an IP's detaching write, a VM's powerOff or last CPU
  // minute): stateSince is only when Cloudtrim first saw it, so the state is at least that old.
  isStateSeenOnly?: boolean;
  tags: Readonly<Record<string, string>>;
}

// A plan's or database's hourly use over the lookback: the 95th percentile of the hours' means and
// how many days of hours there were.
export interface UsageSummary {
  days: number;
  cpuP95Pct: number | null;
  memoryP95Pct: number | null;
  // A DTU database's dtu_consumption_percent.
  dtuP95Pct: number | null;
  // A database's largest storage used (bytes) seen.
  storageUsedBytes: number | null;
}

// The VM a disk belongs to (its managedBy), as inventory last saw it.
export interface DiskOwner {
  powerState: string | null;
  stateSince: number | null;
}

export interface WasteCandidate extends WasteResource {
  // A VM's power state ('running', 'stopped', 'deallocated').
  powerState: string | null;
  owner: DiskOwner | null;
  // A VM's list price an hour at its size (the size catalogue's), for a stopped VM.
  vmHourly: number | null;
  usage: UsageSummary | null;
}

export interface WasteProposal {
  kind: WasteKind;
  currentSize: string | null;
  targetSize: string | null;
  recommendation: string;
  memo: string;
  annualCostSavings: number;
  confidence: number;
}

// Per kind a finder judged: waste (a proposal), clear (not waste, or no longer: an open
// recommendation of the kind is withdrawn), or unjudged (no price, too little history: whatever is
// on offer stays as it is).
export type WasteFinding =
  | { kind: WasteKind; verdict: 'waste'; proposal: WasteProposal }
  | { kind: WasteKind; verdict: 'clear'; reason: string }
  | { kind: WasteKind; verdict: 'unjudged'; reason: string };
