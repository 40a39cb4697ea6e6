// Managed disks: one unattached for a week is deleted after an incremental snapshot (the saving nets
// the snapshot's cost); a Premium SSD whose VM has been deallocated for a month moves to Standard
// HDD, which a deallocated VM does not notice and which can be moved back.
import { tierFor } from './disk-tiers';
import type { WastePriceBook } from './waste-prices';
import {
  clear,
  daysBetween,
  findManagedElsewhere,
  formatDay,
  formatDollars,
  monthsPerYear,
  readNumber,
  readString,
  roundCents,
  unjudged,
} from './waste-rules';
import type { WasteCandidate, WasteFinding } from './waste.types';

export const unattachedDiskMinimumDays = 7;
export const deallocatedVmMinimumDays = 30;
export const premiumSkuName = 'Premium_LRS';
export const standardHddSkuName = 'Standard_LRS';
// Disk deletion and tier changes follow from the disk's state, not a forecast.
const stateRuleConfidence = 0.9;

export function findDiskWaste(disk: WasteCandidate, prices: WastePriceBook, now: number): WasteFinding[] {
  const managedElsewhere = findManagedElsewhere(disk);
  if (managedElsewhere) {
    const reason = `Not judged: ${managedElsewhere}.`;
    return [clear('deleteDisk', reason), clear('diskTier', reason)];
  }
  const diskState = readString(disk.details, 'diskState');
  const managedBy = readString(disk.details, 'managedBy');
  if (diskState === 'Unattached') {
    return [
      judgeUnattached(disk, managedBy, prices, now),
      clear('diskTier', 'Unattached: the question is deleting it, not its tier.'),
    ];
  }
  return [
    clear('deleteDisk', `In use (${diskState ?? 'state unknown'}).`),
    managedBy ? judgeTier(disk, prices, now) : clear('diskTier', 'Attached to no VM.'),
  ];
}

function judgeUnattached(
  disk: WasteCandidate,
  managedBy: string | null,
  prices: WastePriceBook,
  now: number,
): WasteFinding {
  const kind = 'deleteDisk';
  if (managedBy) return clear(kind, `Managed by ${managedBy}.`);
  const ownershipTime = readString(disk.details, 'lastOwnershipUpdateTime');
  const since = disk.stateSince ?? (ownershipTime ? Date.parse(ownershipTime) : Number.NaN);
  if (Number.isNaN(since)) return unjudged(kind, 'Not known since when it is unattached.');
  const days = daysBetween(since, now);
  if (days < unattachedDiskMinimumDays) {
    return clear(kind, `Unattached for ${days} days; ${unattachedDiskMinimumDays} are needed.`);
  }
  const sizeGb = readNumber(disk.details, 'diskSizeGb');
  if (sizeGb === null || !disk.sku) return unjudged(kind, 'Its size or SKU is not known.');
  const diskMonthly = prices.diskMonthly(disk.region, disk.sku, sizeGb);
  const snapshotGbMonthly = prices.snapshotGbMonthly(disk.region);
  if (diskMonthly === undefined || snapshotGbMonthly === undefined) {
    return unjudged(kind, `No price is known for a ${disk.sku} disk or a snapshot in ${disk.region}.`);
  }
  // An incremental snapshot bills the GiB in use; Azure does not say how many a disk uses, so the
  // whole disk is counted: the saving is never overstated.
  const snapshotMonthly = snapshotGbMonthly * sizeGb;
  const netMonthly = diskMonthly - snapshotMonthly;
  if (netMonthly <= 0) {
    return clear(
      kind,
      `Its snapshot would cost as much as the disk (${formatDollars(diskMonthly)} a month).`,
    );
  }
  const tier = tierFor(disk.sku, sizeGb);
  const describedDisk = `${disk.sku}${tier ? ` ${tier}` : ''}, ${sizeGb} GiB`;
  return {
    kind,
    verdict: 'waste',
    proposal: {
      kind,
      currentSize: disk.sku,
      targetSize: null,
      recommendation: `Delete the unattached disk ${disk.name} (${describedDisk}) after taking a snapshot of it.`,
      memo:
        `Seen: unattached since ${formatDay(since)} (${days} days), attached to no VM. ` +
        `Deletes the managed disk ${disk.name} (${describedDisk}) in ${disk.region}. ` +
        `An incremental snapshot of it is taken first and kept, so its data can be restored to a new ` +
        `disk; the automation log names the snapshot. ` +
        `The disk costs ${formatDollars(diskMonthly)} a month; the snapshot up to ` +
        `${formatDollars(snapshotMonthly)} (${sizeGb} GiB at ${formatDollars(snapshotGbMonthly)} per GiB), ` +
        `so ${formatDollars(netMonthly)} a month is saved. ` +
        `Not reversible and never automated: only APPLY NOW deletes it.`,
      annualCostSavings: roundCents(netMonthly * monthsPerYear),
      confidence: stateRuleConfidence,
    },
  };
}

function judgeTier(disk: WasteCandidate, prices: WastePriceBook, now: number): WasteFinding {
  const kind = 'diskTier';
  if (disk.sku !== premiumSkuName) return clear(kind, `${disk.sku ?? 'Its SKU'} is not ${premiumSkuName}.`);
  const owner = disk.owner;
  if (!owner) return unjudged(kind, 'Its VM is not in the inventory.');
  if (owner.powerState !== 'deallocated')
    return clear(kind, `Its VM is ${owner.powerState ?? 'in an unknown state'}.`);
  if (owner.stateSince === null) return unjudged(kind, 'Not known since when its VM is deallocated.');
  const days = daysBetween(owner.stateSince, now);
  if (days < deallocatedVmMinimumDays) {
    return clear(
      kind,
      `Its VM has been deallocated for ${days} days; ${deallocatedVmMinimumDays} are needed.`,
    );
  }
  const sizeGb = readNumber(disk.details, 'diskSizeGb');
  if (sizeGb === null) return unjudged(kind, 'Its size is not known.');
  const premiumMonthly = prices.diskMonthly(disk.region, premiumSkuName, sizeGb);
  const standardMonthly = prices.diskMonthly(disk.region, standardHddSkuName, sizeGb);
  if (premiumMonthly === undefined || standardMonthly === undefined) {
    return unjudged(
      kind,
      `No price is known for a ${sizeGb} GiB Premium SSD or Standard HDD in ${disk.region}.`,
    );
  }
  const savedMonthly = premiumMonthly - standardMonthly;
  if (savedMonthly <= 0) return clear(kind, 'Standard HDD costs as much.');
  const premiumTier = tierFor(premiumSkuName, sizeGb);
  const standardTier = tierFor(standardHddSkuName, sizeGb);
  const vmName = readString(disk.details, 'managedBy')!.split('/').at(-1);
  return {
    kind,
    verdict: 'waste',
    proposal: {
      kind,
      currentSize: premiumSkuName,
      targetSize: standardHddSkuName,
      recommendation: `Change the disk ${disk.name} (${sizeGb} GiB) from Premium SSD to Standard HDD while its VM ${vmName} stays deallocated.`,
      memo:
        `Seen: its VM ${vmName} deallocated since ${formatDay(owner.stateSince)} (${days} days). ` +
        `Changes the SKU of the managed disk ${disk.name} from ${premiumSkuName}${premiumTier ? ` (${premiumTier})` : ''} ` +
        `to ${standardHddSkuName}${standardTier ? ` (${standardTier})` : ''}: ${formatDollars(standardMonthly)} a month ` +
        `instead of ${formatDollars(premiumMonthly)}. Nothing is deleted; the data stays on the disk. ` +
        `Reversible: change it back to ${premiumSkuName} before the VM runs again, as Standard HDD is slower.`,
      annualCostSavings: roundCents(savedMonthly * monthsPerYear),
      confidence: stateRuleConfidence,
    },
  };
}
