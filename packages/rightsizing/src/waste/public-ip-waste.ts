// A public IP address associated with nothing (no NIC or load balancer configuration, no NAT
// gateway) for a week: deleted. A Standard IP bills every hour whether used or not.
import type { WastePriceBook } from './waste-prices';
import {
  clear,
  daysBetween,
  findManagedElsewhere,
  formatDay,
  formatDollars,
  formatHourly,
  hoursPerYear,
  readString,
  roundCents,
  unjudged,
} from './waste-rules';
import type { WasteCandidate, WasteFinding } from './waste.types';

export const unassociatedIpMinimumDays = 7;
const stateRuleConfidence = 0.9;

export function findPublicIpWaste(ip: WasteCandidate, prices: WastePriceBook, now: number): WasteFinding[] {
  const kind = 'deletePublicIp';
  const managedElsewhere = findManagedElsewhere(ip);
  if (managedElsewhere) return [clear(kind, `Not judged: ${managedElsewhere}.`)];
  const ipConfigurationId = readString(ip.details, 'ipConfigurationId');
  const natGatewayId = readString(ip.details, 'natGatewayId');
  if (ipConfigurationId || natGatewayId)
    return [clear(kind, `Associated with ${ipConfigurationId ?? natGatewayId}.`)];
  const allocationMethod = readString(ip.details, 'allocationMethod');
  const skuName = ip.sku ?? 'Basic';
  // A Basic dynamic address is released while unassociated, and nothing is billed for it.
  if (skuName === 'Basic' && allocationMethod === 'Dynamic') {
    return [clear(kind, 'A Basic dynamic address costs nothing while unassociated.')];
  }
  if (ip.stateSince === null) return [unjudged(kind, 'Not known since when it is unassociated.')];
  const days = daysBetween(ip.stateSince, now);
  if (days < unassociatedIpMinimumDays) {
    return [
      clear(
        kind,
        ip.isStateSeenOnly
          ? `Unassociated for at least ${days} days (since Cloudtrim first saw it); ${unassociatedIpMinimumDays} are needed.`
          : `Unassociated for ${days} days; ${unassociatedIpMinimumDays} are needed.`,
      ),
    ];
  }
  const hourly = prices.publicIpHourly(ip.region, skuName);
  if (hourly === undefined)
    return [unjudged(kind, `No price is known for a ${skuName} public IP in ${ip.region}.`)];
  const address = readString(ip.details, 'ipAddress');
  const described = `${skuName}${allocationMethod ? ` ${allocationMethod.toLowerCase()}` : ''}${address ? `, ${address}` : ''}`;
  const annual = hourly * hoursPerYear;
  return [
    {
      kind,
      verdict: 'waste',
      proposal: {
        kind,
        currentSize: skuName,
        targetSize: null,
        recommendation: `Delete the unused public IP address ${ip.name} (${described}).`,
        memo:
          `Seen: associated with nothing (no network interface, load balancer or NAT gateway) ` +
          (ip.isStateSeenOnly
            ? `unassociated for at least ${days} days (since Cloudtrim first saw it, ${formatDay(ip.stateSince)}; ` +
              `no write in Azure's Activity Log dates it). `
            : `since ${formatDay(ip.stateSince)} (${days} days, the write that left it so in Azure's Activity Log). `) +
          `Deletes the public IP address ${ip.name} ` +
          `(${described}) in ${ip.region}: ${formatHourly(hourly)}/h, ${formatDollars(annual)} a year. ` +
          `Not reversible and never automated: only APPLY NOW deletes it, and the address itself ` +
          `cannot be had back.`,
        annualCostSavings: roundCents(annual),
        confidence: stateRuleConfidence,
      },
    },
  ];
}
