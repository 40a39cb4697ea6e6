// SQL databases whose DTU (or, on vCore, CPU) use stays low move to a smaller service objective of
// their own tier that still holds the storage they use.
import {
  findDatabaseObjective,
  listSmallerObjectives,
  maxSizeBytesOf,
  type DatabaseObjective,
} from './database-objectives';
import type { WastePriceBook } from './waste-prices';
import {
  clear,
  findManagedElsewhere,
  formatHourly,
  hoursPerYear,
  readNumber,
  roundCents,
  unjudged,
} from './waste-rules';
import type { WasteCandidate, WasteFinding } from './waste.types';

export const databaseUsageMinimumDays = 7;
// The smaller objective must carry the P95 of the hours' DTU (or CPU) use under 70% of its
// capacity: a database throttles its queries at 100%, and a burst above the hour's mean is common.
export const databaseUsageLimitPct = 70;
const fullConfidenceDays = 14;
const gib = 1024 ** 3;

export function findDatabaseWaste(database: WasteCandidate, prices: WastePriceBook): WasteFinding[] {
  const kind = 'databaseObjective';
  const managedElsewhere = findManagedElsewhere(database);
  if (managedElsewhere) return [clear(kind, `Not judged: ${managedElsewhere}.`)];
  const current = readObjective(database);
  if (!current)
    return [unjudged(kind, `${database.sku ?? 'Its objective'} is not in the objective catalogue.`)];
  const usage = database.usage;
  if (!usage || usage.days < databaseUsageMinimumDays) {
    return [
      unjudged(
        kind,
        `Only ${(usage?.days ?? 0).toFixed(1)} days of use; ${databaseUsageMinimumDays} are needed.`,
      ),
    ];
  }
  const usedPct = current.model === 'dtu' ? usage.dtuP95Pct : usage.cpuP95Pct;
  const metricName = current.model === 'dtu' ? 'DTU' : 'CPU';
  if (usedPct === null) return [unjudged(kind, `Its ${metricName} use is not known.`)];
  const currentHourly = prices.databaseHourly(database.region, current.name);
  if (currentHourly === undefined)
    return [unjudged(kind, `No price is known for ${current.name} in ${database.region}.`)];
  // Without a reading of the storage used, the target must allow the size the database may grow to.
  const storageBytes = usage.storageUsedBytes ?? readNumber(database.details, 'maxSizeBytes');
  if (storageBytes === null) return [unjudged(kind, 'Its storage use is not known.')];
  const load = (usedPct / 100) * current.capacity;
  let target: { objective: DatabaseObjective; hourly: number } | undefined;
  for (const objective of listSmallerObjectives(current.name)) {
    if (load > (databaseUsageLimitPct / 100) * objective.capacity) continue;
    if (maxSizeBytesOf(objective) < storageBytes) continue;
    const hourly = prices.databaseHourly(database.region, objective.name);
    if (hourly === undefined || hourly >= currentHourly) continue;
    if (!target || hourly < target.hourly) target = { objective, hourly };
  }
  if (!target) return [clear(kind, `No smaller ${current.tier} objective carries its use and storage.`)];
  const unit = current.model === 'dtu' ? 'DTUs' : 'vCores';
  const storageGb = storageBytes / gib;
  const projected = (load / target.objective.capacity) * 100;
  return [
    {
      kind,
      verdict: 'waste',
      proposal: {
        kind,
        currentSize: current.name,
        targetSize: target.objective.name,
        recommendation: `Move the database ${database.name} from ${current.name} to ${target.objective.name}.`,
        memo:
          `Seen over ${Math.round(usage.days)} days: P95 ${metricName} ${usedPct.toFixed(0)}% of ${current.name} ` +
          `(${current.capacity} ${unit}). Projected on ${target.objective.name} (${target.objective.capacity} ${unit}): ` +
          `${projected.toFixed(0)}% (limit ${databaseUsageLimitPct}%). ` +
          `${usage.storageUsedBytes === null ? 'Its maximum size' : 'Storage used'} ${storageGb.toFixed(1)} GB fits ` +
          `${target.objective.name}'s ${target.objective.maxSizeGb} GB, and the maximum size is kept at least that. ` +
          `Changes the service objective: ${formatHourly(target.hourly)}/h instead of ${formatHourly(currentHourly)}/h; ` +
          `Azure copies it online and switches over in seconds, dropping open connections once. Nothing is deleted. ` +
          `Reversible: move it back to ${current.name}.`,
        annualCostSavings: roundCents((currentHourly - target.hourly) * hoursPerYear),
        confidence: Math.min(1, usage.days / fullConfidenceDays),
      },
    },
  ];
}

// The objective by the resource's SKU: 'S3' as inventory keeps it, or a vCore SKU's family name with
// its vCores ('GP_Gen5' and capacity 2 → 'GP_Gen5_2').
function readObjective(database: WasteCandidate): DatabaseObjective | undefined {
  if (!database.sku) return undefined;
  const capacity = readNumber(database.details, 'capacity');
  return (
    findDatabaseObjective(database.sku) ??
    (capacity === null ? undefined : findDatabaseObjective(`${database.sku}_${capacity}`))
  );
}
