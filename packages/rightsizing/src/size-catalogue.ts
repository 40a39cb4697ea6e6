// Which sizes a VM may move to: offered in its region, priced for its OS, and able to carry what
// the VM uses (premium disks, accelerated networking, its data disks and NICs). Unknown
// requirements are assumed satisfied only when the size says nothing either: a size that states a
// limit must meet a known count.
import type { SizeOption, SizePrice, VmRequirements } from './analysis.types';
import { overloadThresholdPct } from './service-level';
import type { SizingNeed } from './sizing-methods';

// Moving down to a size whose headroom is thinner than this over the need waits (hysteresis): a
// recommendation that flips back and forth is worse than one a little less tight.
const downsizeBand = 0.1;

export interface PricedSize extends SizeOption {
  price: SizePrice;
}

export function canCarry(size: SizeOption, requirements: VmRequirements): boolean {
  if (!size.isAvailable) return false;
  if (requirements.usesPremiumDisk && !size.hasPremiumIo) return false;
  if (requirements.usesAcceleratedNetworking && !size.hasAcceleratedNetworking) return false;
  if (requirements.dataDiskCount !== null && size.maxDataDisks !== null) {
    if (requirements.dataDiskCount > size.maxDataDisks) return false;
  }
  if (requirements.nicCount !== null && size.maxNics !== null && requirements.nicCount > size.maxNics) {
    return false;
  }
  return true;
}

// The sizes the VM could run on, cheapest first (ties: fewer vCPUs, then name, so it is stable).
// A fleet's VMs share a few catalogues and requirement sets, and filtering and sorting every size
// of the region for each VM was a tenth of the analysis of 10,000 VMs: lists are kept per catalogue
// and prices (weakly, so one no longer read is let go) and requirements.
export function listCandidateSizes(
  sizes: readonly SizeOption[],
  prices: ReadonlyMap<string, SizePrice>,
  requirements: VmRequirements,
): readonly PricedSize[] {
  let byPrices = candidatesByCatalogue.get(sizes);
  if (!byPrices) {
    byPrices = new WeakMap();
    candidatesByCatalogue.set(sizes, byPrices);
  }
  let byRequirements = byPrices.get(prices);
  if (!byRequirements) {
    byRequirements = new Map();
    byPrices.set(prices, byRequirements);
  }
  const key = `${requirements.dataDiskCount}|${requirements.nicCount}|${requirements.usesPremiumDisk}|${requirements.usesAcceleratedNetworking}`;
  let candidates = byRequirements.get(key);
  if (!candidates) {
    candidates = sortCandidates(sizes, prices, requirements);
    byRequirements.set(key, candidates);
  }
  return candidates;
}

const candidatesByCatalogue = new WeakMap<
  readonly SizeOption[],
  WeakMap<ReadonlyMap<string, SizePrice>, Map<string, readonly PricedSize[]>>
>();

function sortCandidates(
  sizes: readonly SizeOption[],
  prices: ReadonlyMap<string, SizePrice>,
  requirements: VmRequirements,
): readonly PricedSize[] {
  const candidates: PricedSize[] = [];
  for (const size of sizes) {
    const price = prices.get(size.name);
    if (!price || !canCarry(size, requirements)) continue;
    candidates.push({ ...size, price });
  }
  return Object.freeze(
    candidates.sort(
      (left, right) =>
        left.price.hourlyPrice - right.price.hourlyPrice ||
        left.vcpus - right.vcpus ||
        left.name.localeCompare(right.name),
    ),
  );
}

// A different family usually means different hardware: Azure can only resize a running VM to a
// size its current cluster offers, so the move needs a deallocation (a restart).
export function needsDeallocation(current: SizeOption | undefined, target: SizeOption): boolean {
  return !current || current.family !== target.family;
}

// The need fits the size's vCPUs and memory, and a burstable size's credits hold it (checked last:
// it replays the demand).
export function carriesNeed(size: SizeOption, need: SizingNeed, headroom = 0): boolean {
  const cpuLimit = (size.vcpus * need.cpuThresholdPct) / 100;
  if (need.cpuLoad > cpuLimit * (1 - headroom)) return false;
  if (
    need.memoryLoad !== null &&
    need.memoryLoad > ((size.memoryGiB * need.memoryThresholdPct) / 100) * (1 - headroom)
  ) {
    return false;
  }
  if (
    need.memoryPeakLoad != null &&
    need.memoryPeakLoad > ((size.memoryGiB * overloadThresholdPct) / 100) * (1 - headroom)
  ) {
    return false;
  }
  return need.credits?.judge(size, headroom)?.fits ?? true;
}

// The cheapest size that carries the need. With a previous proposal, it stays put unless the load
// really moved: up only when the long-memory need (a one-off spike barely moves it) no longer fits
// either, down only when both the need and the long-memory need fit the smaller size with headroom.
export function chooseSize(
  candidates: readonly PricedSize[],
  need: SizingNeed,
  currentName: string,
  previousName: string | null = null,
): PricedSize | undefined {
  const previous = previousName ? candidates.find((size) => size.name === previousName) : undefined;
  const base = previous ?? candidates.find((size) => size.name === currentName);
  const steady: SizingNeed = previous ? { ...need, ...need.steady?.() } : need;
  const isSettled = (size: PricedSize, headroom = 0) =>
    carriesNeed(size, need, headroom) && (!previous || carriesNeed(size, steady, headroom));
  if (!base) return candidates.find((size) => carriesNeed(size, need));
  if (!carriesNeed(base, need)) {
    if (previous && carriesNeed(previous, steady)) return previous;
    return candidates.find((size) => carriesNeed(size, need));
  }
  // The first proposal takes the cheapest fit; a later one moves down only past the band.
  const roomier = candidates.find((size) => isSettled(size, previous ? downsizeBand : 0));
  return roomier && roomier.price.hourlyPrice < base.price.hourlyPrice ? roomier : base;
}
