// A VM stopped from inside its guest (power state `stopped`) still holds its host and Azure bills
// its compute by the hour; deallocating it stops the bill and can be undone by starting it.
import {
  clear,
  daysBetween,
  findManagedElsewhere,
  formatDay,
  formatHourly,
  hoursPerYear,
  roundCents,
  unjudged,
} from './waste-rules';
import type { WasteCandidate, WasteFinding } from './waste.types';

// A day, so a VM stopped for a reboot or a moment of maintenance is left alone.
export const stoppedVmMinimumDays = 1;
const stateRuleConfidence = 0.9;

export function findStoppedVmWaste(vm: WasteCandidate, now: number): WasteFinding[] {
  const kind = 'deallocate';
  const managedElsewhere = findManagedElsewhere(vm);
  if (managedElsewhere) return [clear(kind, `Not judged: ${managedElsewhere}.`)];
  if (vm.powerState !== 'stopped') return [clear(kind, `It is ${vm.powerState ?? 'in an unknown state'}.`)];
  if (vm.stateSince === null) return [unjudged(kind, 'Not known since when it is stopped.')];
  const days = daysBetween(vm.stateSince, now);
  if (days < stoppedVmMinimumDays) return [clear(kind, 'Stopped for less than a day.')];
  if (vm.vmHourly === null || !vm.sku) {
    return [unjudged(kind, `No price is known for ${vm.sku ?? 'its size'} in ${vm.region}.`)];
  }
  const annual = vm.vmHourly * hoursPerYear;
  return [
    {
      kind,
      verdict: 'waste',
      proposal: {
        kind,
        currentSize: vm.sku,
        targetSize: null,
        recommendation: `Deallocate ${vm.name}: it is stopped but still billed for its compute.`,
        memo:
          (vm.isStateSeenOnly
            ? `Seen: stopped for at least ${days} days (since Cloudtrim first saw it, ${formatDay(vm.stateSince)}), not `
            : `Seen: stopped since ${formatDay(vm.stateSince)} (${days} days), not `) +
          `deallocated, so Azure still bills ${vm.sku} at ${formatHourly(vm.vmHourly)}/h. ` +
          `Deallocates the VM ${vm.name}: its compute costs nothing until it is started again; its disks ` +
          `and their data stay, and are still billed. Nothing is deleted. Reversible: start it.`,
        annualCostSavings: roundCents(annual),
        confidence: stateRuleConfidence,
      },
    },
  ];
}
