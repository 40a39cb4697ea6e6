// The changes to what is not a VM (a disk, a public IP, an App Service plan, a SQL database): their
// steps, what the resource must still be when one acts, and how each is said in the logs. Pure, so
// the executor's rules for them read in one place and are tested without Azure.
import { findDatabaseObjective, maxSizeBytesOf } from '@cloudtrim/rightsizing/waste/database-objectives';
import { findPlanTier } from '@cloudtrim/rightsizing/waste/plan-tiers';
import type { CloudResourceState, CloudSku } from '../../cloud/cloud-provider';
import type { ChangeKind, ChangeRow } from './automation.repository';

export type ResourceChangeKind = Extract<
  ChangeKind,
  'deleteDisk' | 'deletePublicIp' | 'deletePlan' | 'diskTier' | 'planTier' | 'databaseObjective'
>;
export type ResourceStep = 'snapshot' | 'delete' | 'changeSku';

export const resourceChangeKinds: readonly ResourceChangeKind[] = [
  'deleteDisk',
  'deletePublicIp',
  'deletePlan',
  'diskTier',
  'planTier',
  'databaseObjective',
];

// Deletions cannot be undone: only a user's APPLY NOW starts one, never the window or automation.
export const deletionKinds: readonly ChangeKind[] = ['deleteDisk', 'deletePublicIp', 'deletePlan'];

export function isResourceChange(kind: ChangeKind): kind is ResourceChangeKind {
  return (resourceChangeKinds as readonly ChangeKind[]).includes(kind);
}

export function isDeletion(kind: ChangeKind): boolean {
  return deletionKinds.includes(kind);
}

// A disk is copied (an incremental snapshot) before it is deleted.
export function planResourceSteps(kind: ResourceChangeKind): ResourceStep[] {
  if (kind === 'deleteDisk') return ['snapshot', 'delete'];
  return isDeletion(kind) ? ['delete'] : ['changeSku'];
}

// The snapshot of a disk deletion, beside the disk and named after it and the change, so a resumed
// run finds the one it asked for (Azure's names: at most 80 characters).
export function snapshotIdOf(diskId: string, changeId: number): string {
  const diskName = diskId.split('/').at(-1) ?? 'disk';
  const suffix = `-before-delete-${changeId}`;
  return diskId.replace(
    /\/providers\/Microsoft\.Compute\/disks\/[^/]+$/i,
    `/providers/Microsoft.Compute/snapshots/${diskName.slice(0, 80 - suffix.length)}${suffix}`,
  );
}

// Why the resource is no longer what the recommendation saw, read just before the first write; a
// resource someone changed since is left as it is.
export function describeResourceMismatch(
  change: Pick<ChangeRow, 'kind' | 'expectedSize'>,
  state: CloudResourceState | null,
): string | undefined {
  if (!state) return 'it no longer exists in Azure';
  const { details } = state;
  if (change.expectedSize && !sameName(state.sku, change.expectedSize)) {
    return `it is now ${state.sku ?? 'of no SKU'}, not ${change.expectedSize} as when this was planned`;
  }
  if (change.kind === 'deleteDisk') {
    const managedBy = readText(details.managedBy);
    if (managedBy) return `the disk is now attached to ${managedBy.split('/').at(-1)}`;
    if (details.diskState !== 'Unattached') {
      return `the disk is now ${readText(details.diskState) ?? 'of no known state'}, not Unattached`;
    }
  }
  if (change.kind === 'diskTier' && details.diskState === 'Attached') {
    return 'the disk is now attached to a running VM';
  }
  if (change.kind === 'deletePublicIp') {
    const associatedWith = readText(details.ipConfigurationId) ?? readText(details.natGatewayId);
    if (associatedWith) return `the IP address is now associated with ${describeAssociation(associatedWith)}`;
  }
  if (change.kind === 'deletePlan') {
    const sites = typeof details.numberOfSites === 'number' ? details.numberOfSites : undefined;
    if (sites === undefined) return 'Azure does not say whether the plan has apps';
    if (sites > 0) return `the plan now has ${sites} app${sites === 1 ? '' : 's'}`;
  }
  return undefined;
}

// A SKU change Azure has already made (someone else, or a run whose answer was lost).
export function isResourceChangeDone(
  change: Pick<ChangeRow, 'kind' | 'newSize'>,
  state: CloudResourceState | null,
): boolean {
  if (isDeletion(change.kind)) return state === null;
  return state !== null && sameName(state.sku, change.newSize);
}

// The SKU to send, as each type spells it. A database moving to an objective that holds less than
// its present maximum size gets that objective's maximum (the finder kept the storage it uses).
export function buildSku(
  change: Pick<ChangeRow, 'kind' | 'newSize'>,
  state: CloudResourceState | null,
): CloudSku {
  const name = change.newSize ?? '';
  if (change.kind === 'planTier') {
    const tier = findPlanTier(name)?.family;
    return tier ? { name, tier } : { name };
  }
  if (change.kind !== 'databaseObjective') return { name };
  const objective = findDatabaseObjective(name);
  if (!objective) return { name };
  const currentMaxBytes =
    typeof state?.details.maxSizeBytes === 'number' ? state.details.maxSizeBytes : undefined;
  const maxSizeBytes = maxSizeBytesOf(objective);
  const shrink = currentMaxBytes !== undefined && currentMaxBytes > maxSizeBytes ? { maxSizeBytes } : {};
  if (objective.model === 'dtu') return { name, tier: objective.tier, ...shrink };
  // 'GP_Gen5_2' is sent as its family and vCores, as Azure's vCore SKUs are.
  const [edition, family] = name.split('_');
  return {
    name: `${edition}_${family}`,
    tier: objective.tier,
    family: family!,
    capacity: objective.capacity,
    ...shrink,
  };
}

// The change in a log line: 'Deletion', 'Change to Standard_LRS'.
export function describeResourceChange(change: Pick<ChangeRow, 'kind' | 'newSize'>): string {
  return isDeletion(change.kind) ? 'Deletion' : `Change to ${change.newSize}`;
}

export function describeResourceStep(
  step: ResourceStep,
  change: Pick<ChangeRow, 'snapshotId' | 'newSize'>,
): string {
  if (step === 'snapshot') return `Snapshot ${change.snapshotId}`;
  return step === 'delete' ? 'Deletion' : `Change to ${change.newSize}`;
}

// What the log and Recent Activity say of a deletion or change that succeeded. A disk's deletion
// names the snapshot it left, and what was deleted (its SKU and size) as the Memo said.
export function describeResourceSuccess(
  change: Pick<ChangeRow, 'kind' | 'previousSize' | 'newSize' | 'snapshotId'>,
  observed: CloudResourceState | undefined,
): string {
  if (change.kind === 'deleteDisk') {
    const size =
      typeof observed?.details.diskSizeGb === 'number' ? `, ${observed.details.diskSizeGb} GiB` : '';
    return `Deleted (${change.previousSize ?? 'disk'}${size}) after snapshot ${change.snapshotId}`;
  }
  if (isDeletion(change.kind)) return `Deleted (${change.previousSize ?? 'no SKU'})`;
  return `Changed from ${change.previousSize} to ${change.newSize}`;
}

function describeAssociation(id: string): string {
  const parts = id.split('/');
  // …/networkInterfaces/nic-1/ipConfigurations/ipconfig1 → nic-1; …/natGateways/nat-1 → nat-1.
  const index = parts.findIndex((part) =>
    /^(networkInterfaces|loadBalancers|natGateways|applicationGateways|virtualNetworkGateways|bastionHosts|azureFirewalls)$/i.test(
      part,
    ),
  );
  return index >= 0 && parts[index + 1] ? parts[index + 1]! : id;
}

function readText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function sameName(left: string | null, right: string | null): boolean {
  return left !== null && right !== null && left.toLowerCase() === right.toLowerCase();
}
