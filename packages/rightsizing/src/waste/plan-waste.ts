// App Service plans: one with no apps for a week is deleted; one whose apps use little CPU and
// memory moves to a smaller tier of its own family (its instances, its apps and their settings stay).
import { findPlanTier, listSmallerPlanTiers, type PlanTier } from './plan-tiers';
import type { WastePriceBook } from './waste-prices';
import {
  clear,
  daysBetween,
  findManagedElsewhere,
  formatDay,
  formatDollars,
  formatHourly,
  hoursPerYear,
  readNumber,
  readString,
  roundCents,
  unjudged,
} from './waste-rules';
import type { WasteCandidate, WasteFinding } from './waste.types';

export const emptyPlanMinimumDays = 7;
export const planUsageMinimumDays = 7;
// The smaller tier must carry the plan's P95 CPU under 70% and its P95 memory under 80% of what it
// has: App Service starts throttling requests well before a worker is full, and a plan scales out,
// not up, when it is busy, so a tier is only given up with room to spare.
export const planCpuLimitPct = 70;
export const planMemoryLimitPct = 80;
// Free and Shared plans run on shared workers: nothing to save.
const freeTiers = new Set(['Free', 'Shared']);
const stateRuleConfidence = 0.9;
const fullConfidenceDays = 14;

export function findPlanWaste(plan: WasteCandidate, prices: WastePriceBook, now: number): WasteFinding[] {
  const managedElsewhere = findManagedElsewhere(plan);
  if (managedElsewhere) {
    const reason = `Not judged: ${managedElsewhere}.`;
    return [clear('deletePlan', reason), clear('planTier', reason)];
  }
  const tier = readString(plan.details, 'tier');
  if (tier && freeTiers.has(tier)) {
    const reason = `A ${tier} plan costs nothing to keep.`;
    return [clear('deletePlan', reason), clear('planTier', reason)];
  }
  const numberOfSites = readNumber(plan.details, 'numberOfSites');
  if (numberOfSites === null) {
    const reason = 'Not known how many apps it has.';
    return [unjudged('deletePlan', reason), unjudged('planTier', reason)];
  }
  if (numberOfSites === 0) {
    return [judgeEmpty(plan, prices, now), clear('planTier', 'It has no apps: the question is deleting it.')];
  }
  return [clear('deletePlan', `It has ${numberOfSites} apps.`), judgeTier(plan, prices)];
}

// The plan's OS, which prices it, from its `kind` ('linux', 'app,linux'; Windows otherwise).
export function readPlanOs(plan: Pick<WasteCandidate, 'details'>): 'linux' | 'windows' {
  return (readString(plan.details, 'kind') ?? '').toLowerCase().includes('linux') ? 'linux' : 'windows';
}

// The instances the plan bills for.
export function readPlanInstances(plan: Pick<WasteCandidate, 'details'>): number {
  return Math.max(1, readNumber(plan.details, 'capacity') ?? 1);
}

function describeWorkers(capacity: number): string {
  return capacity === 1 ? '1 instance' : `${capacity} instances`;
}

function judgeEmpty(plan: WasteCandidate, prices: WastePriceBook, now: number): WasteFinding {
  const kind = 'deletePlan';
  // Inventory may not know since when a plan is empty; an empty plan costs the same either way.
  const days = plan.stateSince === null ? null : daysBetween(plan.stateSince, now);
  if (days !== null && days < emptyPlanMinimumDays) {
    return clear(kind, `Empty for ${days} days; ${emptyPlanMinimumDays} are needed.`);
  }
  if (!plan.sku) return unjudged(kind, 'Its SKU is not known.');
  const os = readPlanOs(plan);
  const hourly = prices.planHourly(plan.region, plan.sku, os);
  if (hourly === undefined)
    return unjudged(kind, `No price is known for a ${plan.sku} ${os} plan in ${plan.region}.`);
  const capacity = readPlanInstances(plan);
  const annual = hourly * capacity * hoursPerYear;
  const described = `${plan.sku}, ${os === 'linux' ? 'Linux' : 'Windows'}, ${describeWorkers(capacity)}`;
  return {
    kind,
    verdict: 'waste',
    proposal: {
      kind,
      currentSize: plan.sku,
      targetSize: null,
      recommendation: `Delete the App Service plan ${plan.name} (${described}): it hosts no apps.`,
      memo:
        `Seen: no apps` +
        (days === null || plan.stateSince === null
          ? ''
          : ` since ${formatDay(plan.stateSince)} (${days} days)`) +
        `. Deletes the App Service plan ${plan.name} (${described}) in ${plan.region}: ` +
        `${formatHourly(hourly)}/h per instance, ${formatDollars(annual)} a year. No app is deleted: it has none. ` +
        `Not reversible and never automated: only APPLY NOW deletes it.`,
      annualCostSavings: roundCents(annual),
      confidence: stateRuleConfidence,
    },
  };
}

function judgeTier(plan: WasteCandidate, prices: WastePriceBook): WasteFinding {
  const kind = 'planTier';
  const current = plan.sku ? findPlanTier(plan.sku) : undefined;
  if (!current) return unjudged(kind, `${plan.sku ?? 'Its SKU'} is not in the plan catalogue.`);
  const usage = plan.usage;
  if (!usage || usage.days < planUsageMinimumDays) {
    return unjudged(
      kind,
      `Only ${(usage?.days ?? 0).toFixed(1)} days of use; ${planUsageMinimumDays} are needed.`,
    );
  }
  if (usage.cpuP95Pct === null || usage.memoryP95Pct === null)
    return unjudged(kind, 'Its CPU or memory use is not known.');
  const os = readPlanOs(plan);
  const currentHourly = prices.planHourly(plan.region, current.name, os);
  if (currentHourly === undefined)
    return unjudged(kind, `No price is known for ${current.name} in ${plan.region}.`);
  const cpuVcpus = (usage.cpuP95Pct / 100) * current.vCpus;
  const memoryGb = (usage.memoryP95Pct / 100) * current.memoryGb;
  const fits = (tier: PlanTier) =>
    cpuVcpus <= (planCpuLimitPct / 100) * tier.vCpus &&
    memoryGb <= (planMemoryLimitPct / 100) * tier.memoryGb;
  let target: { tier: PlanTier; hourly: number } | undefined;
  for (const tier of listSmallerPlanTiers(current.name)) {
    const hourly = prices.planHourly(plan.region, tier.name, os);
    if (hourly === undefined || hourly >= currentHourly || !fits(tier)) continue;
    if (!target || hourly < target.hourly) target = { tier, hourly };
  }
  if (!target) return clear(kind, `No smaller ${current.family} tier carries its use.`);
  const capacity = readPlanInstances(plan);
  const annual = (currentHourly - target.hourly) * capacity * hoursPerYear;
  const projectedCpu = (cpuVcpus / target.tier.vCpus) * 100;
  const projectedMemory = (memoryGb / target.tier.memoryGb) * 100;
  return {
    kind,
    verdict: 'waste',
    proposal: {
      kind,
      currentSize: current.name,
      targetSize: target.tier.name,
      recommendation: `Move the App Service plan ${plan.name} from ${current.name} to ${target.tier.name}.`,
      memo:
        `Seen over ${Math.round(usage.days)} days: P95 CPU ${usage.cpuP95Pct.toFixed(0)}% and P95 memory ` +
        `${usage.memoryP95Pct.toFixed(0)}% of ${current.name} (${current.vCpus} vCPUs, ${current.memoryGb} GB). ` +
        `Projected on ${target.tier.name} (${target.tier.vCpus} vCPUs, ${target.tier.memoryGb} GB): ` +
        `${projectedCpu.toFixed(0)}% CPU, ${projectedMemory.toFixed(0)}% memory (limits ${planCpuLimitPct}% and ${planMemoryLimitPct}%). ` +
        `Changes the plan's tier for its ${describeWorkers(capacity)}: ${formatHourly(target.hourly)}/h each instead of ` +
        `${formatHourly(currentHourly)}/h. Its apps stay and restart on the new workers. Nothing is deleted. ` +
        `Reversible: move it back to ${current.name}.`,
      annualCostSavings: roundCents(annual),
      confidence: Math.min(1, usage.days / fullConfidenceDays),
    },
  };
}
