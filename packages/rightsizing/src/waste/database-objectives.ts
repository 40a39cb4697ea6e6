// Azure SQL Database service objectives with what each provides. Azure's published figures:
// DTU: https://learn.microsoft.com/en-us/azure/azure-sql/database/resource-limits-dtu-single-databases
// vCore: https://learn.microsoft.com/en-us/azure/azure-sql/database/resource-limits-vcore-single-databases
export type DatabaseModel = 'dtu' | 'vCore';

export interface DatabaseObjective {
  name: string;
  // Azure's sku.tier: 'Basic', 'Standard', 'Premium', 'GeneralPurpose', 'BusinessCritical'.
  tier: string;
  model: DatabaseModel;
  // DTUs for the DTU model, vCores for the vCore model.
  capacity: number;
  maxSizeGb: number;
}

const gib = 1024 ** 3;

function dtu(name: string, tier: string, capacity: number, maxSizeGb: number): DatabaseObjective {
  return { name, tier, model: 'dtu', capacity, maxSizeGb };
}

function vCore(prefix: 'GP' | 'BC', capacity: number, maxSizeGb: number): DatabaseObjective {
  const tier = prefix === 'GP' ? 'GeneralPurpose' : 'BusinessCritical';
  return { name: `${prefix}_Gen5_${capacity}`, tier, model: 'vCore', capacity, maxSizeGb };
}

export const databaseObjectives: readonly DatabaseObjective[] = [
  dtu('Basic', 'Basic', 5, 2),
  dtu('S0', 'Standard', 10, 250),
  dtu('S1', 'Standard', 20, 250),
  dtu('S2', 'Standard', 50, 250),
  dtu('S3', 'Standard', 100, 1024),
  dtu('S4', 'Standard', 200, 1024),
  dtu('S6', 'Standard', 400, 1024),
  dtu('S7', 'Standard', 800, 1024),
  dtu('S9', 'Standard', 1600, 1024),
  dtu('S12', 'Standard', 3000, 1024),
  dtu('P1', 'Premium', 125, 1024),
  dtu('P2', 'Premium', 250, 1024),
  dtu('P4', 'Premium', 500, 1024),
  dtu('P6', 'Premium', 1000, 1024),
  dtu('P11', 'Premium', 1750, 4096),
  dtu('P15', 'Premium', 4000, 4096),
  vCore('GP', 2, 1024),
  vCore('GP', 4, 1024),
  vCore('GP', 6, 1536),
  vCore('GP', 8, 1536),
  vCore('GP', 10, 1536),
  vCore('GP', 12, 3072),
  vCore('GP', 14, 3072),
  vCore('GP', 16, 3072),
  vCore('GP', 18, 3072),
  vCore('GP', 20, 3072),
  vCore('GP', 24, 4096),
  vCore('GP', 32, 4096),
  vCore('GP', 40, 4096),
  vCore('GP', 80, 4096),
  vCore('GP', 128, 4096),
  vCore('BC', 2, 1024),
  vCore('BC', 4, 1024),
  vCore('BC', 6, 1536),
  vCore('BC', 8, 2048),
  vCore('BC', 10, 2048),
  vCore('BC', 12, 3072),
  vCore('BC', 14, 3072),
  vCore('BC', 16, 3072),
  vCore('BC', 18, 3072),
  vCore('BC', 20, 3072),
  vCore('BC', 24, 4096),
  vCore('BC', 32, 4096),
  vCore('BC', 40, 4096),
  vCore('BC', 80, 4096),
  vCore('BC', 128, 4096),
];

const objectivesByName = new Map(databaseObjectives.map((objective) => [objective.name, objective]));

export function findDatabaseObjective(name: string): DatabaseObjective | undefined {
  return objectivesByName.get(name);
}

export function maxSizeBytesOf(objective: DatabaseObjective): number {
  return objective.maxSizeGb * gib;
}

// The smaller objectives of the database's own tier, largest first: moving Standard to Standard or
// General Purpose to General Purpose keeps the features (Premium's in-memory OLTP, BC's replicas).
export function listSmallerObjectives(name: string): readonly DatabaseObjective[] {
  const current = objectivesByName.get(name);
  if (!current) return [];
  return databaseObjectives
    .filter((objective) => objective.tier === current.tier && objective.capacity < current.capacity)
    .sort((a, b) => b.capacity - a.capacity);
}
