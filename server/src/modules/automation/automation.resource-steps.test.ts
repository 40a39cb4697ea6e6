import { describe, expect, it } from 'vitest';
import type { CloudResourceState } from '../../cloud/cloud-provider';
import type { ChangeRow } from './automation.repository';
import {
  buildSku,
  describeResourceMismatch,
  describeResourceSuccess,
  isResourceChangeDone,
  planResourceSteps,
  snapshotIdOf,
} from './automation.resource-steps';

const group = '/subscriptions/sub-1/resourceGroups/rg';
const diskId = `${group}/providers/Microsoft.Compute/disks/data-1`;
const state = (sku: string | null, details: Record<string, unknown> = {}): CloudResourceState => ({
  sku,
  details,
  provisioningState: 'Succeeded',
});
const change = (fields: Partial<ChangeRow>) =>
  ({ expectedSize: null, newSize: null, ...fields }) as ChangeRow;

describe('the steps of a change', () => {
  it('snapshots a disk before deleting it; other deletions delete, the rest change the SKU', () => {
    expect(planResourceSteps('deleteDisk')).toEqual(['snapshot', 'delete']);
    expect(planResourceSteps('deletePublicIp')).toEqual(['delete']);
    expect(planResourceSteps('deletePlan')).toEqual(['delete']);
    expect(planResourceSteps('databaseObjective')).toEqual(['changeSku']);
  });

  it("names the snapshot beside the disk after the disk and the change, within Azure's 80 characters", () => {
    expect(snapshotIdOf(diskId, 42)).toBe(
      `${group}/providers/Microsoft.Compute/snapshots/data-1-before-delete-42`,
    );
    const long = snapshotIdOf(`${group}/providers/Microsoft.Compute/disks/${'d'.repeat(80)}`, 7);
    expect(long.split('/').at(-1)).toHaveLength(80);
    expect(long.endsWith('-before-delete-7')).toBe(true);
  });
});

describe('the resource is still what the recommendation saw', () => {
  it('a disk to delete: still Unattached and owned by nothing', () => {
    const deleteDisk = change({ kind: 'deleteDisk', expectedSize: 'Premium_LRS' });
    expect(
      describeResourceMismatch(deleteDisk, state('Premium_LRS', { diskState: 'Unattached' })),
    ).toBeUndefined();
    expect(
      describeResourceMismatch(
        deleteDisk,
        state('Premium_LRS', {
          diskState: 'Attached',
          managedBy: `${group}/providers/Microsoft.Compute/virtualMachines/vm-7`,
        }),
      ),
    ).toBe('the disk is now attached to vm-7');
    expect(describeResourceMismatch(deleteDisk, state('Premium_LRS', { diskState: 'ActiveSAS' }))).toBe(
      'the disk is now ActiveSAS, not Unattached',
    );
    expect(describeResourceMismatch(deleteDisk, null)).toBe('it no longer exists in Azure');
  });

  it('an IP still unassociated, a plan still without apps, a SKU still the one planned from', () => {
    expect(
      describeResourceMismatch(
        change({ kind: 'deletePublicIp' }),
        state('Standard', {
          ipConfigurationId: `${group}/providers/Microsoft.Network/networkInterfaces/nic-3/ipConfigurations/ipconfig1`,
        }),
      ),
    ).toBe('the IP address is now associated with nic-3');
    expect(
      describeResourceMismatch(change({ kind: 'deletePlan' }), state('P1v3', { numberOfSites: 2 })),
    ).toBe('the plan now has 2 apps');
    expect(
      describeResourceMismatch(change({ kind: 'deletePlan' }), state('P1v3', { numberOfSites: 0 })),
    ).toBeUndefined();
    expect(describeResourceMismatch(change({ kind: 'planTier', expectedSize: 'P1v3' }), state('P2v3'))).toBe(
      'it is now P2v3, not P1v3 as when this was planned',
    );
    expect(
      describeResourceMismatch(
        change({ kind: 'diskTier', expectedSize: 'Premium_LRS' }),
        state('Premium_LRS', { diskState: 'Attached' }),
      ),
    ).toBe('the disk is now attached to a running VM');
  });

  it('is done when deleted, or at its new SKU', () => {
    expect(isResourceChangeDone(change({ kind: 'deletePlan' }), null)).toBe(true);
    expect(isResourceChangeDone(change({ kind: 'deletePlan' }), state('P1v3'))).toBe(false);
    expect(
      isResourceChangeDone(change({ kind: 'diskTier', newSize: 'Standard_LRS' }), state('standard_lrs')),
    ).toBe(true);
  });
});

describe('the SKU sent', () => {
  it("names a plan's tier, a DTU objective's edition, a vCore objective's family and vCores", () => {
    expect(buildSku(change({ kind: 'diskTier', newSize: 'Standard_LRS' }), null)).toEqual({
      name: 'Standard_LRS',
    });
    expect(buildSku(change({ kind: 'planTier', newSize: 'P0v3' }), null)).toEqual({
      name: 'P0v3',
      tier: 'PremiumV3',
    });
    expect(buildSku(change({ kind: 'databaseObjective', newSize: 'GP_Gen5_2' }), null)).toEqual({
      name: 'GP_Gen5',
      tier: 'GeneralPurpose',
      family: 'Gen5',
      capacity: 2,
    });
  });

  it("brings a database's maximum size down to what a smaller objective holds, and only then", () => {
    const gib = 1024 ** 3;
    const toS1 = change({ kind: 'databaseObjective', newSize: 'S1' });
    expect(buildSku(toS1, state('S3', { maxSizeBytes: 1024 * gib }))).toEqual({
      name: 'S1',
      tier: 'Standard',
      maxSizeBytes: 250 * gib,
    });
    expect(buildSku(toS1, state('S3', { maxSizeBytes: 100 * gib }))).toEqual({
      name: 'S1',
      tier: 'Standard',
    });
  });
});

describe('the log line of a success', () => {
  it("names what a disk deletion deleted and the snapshot's id", () => {
    expect(
      describeResourceSuccess(
        change({ kind: 'deleteDisk', previousSize: 'Premium_LRS', snapshotId: snapshotIdOf(diskId, 3) }),
        state('Premium_LRS', { diskSizeGb: 128 }),
      ),
    ).toBe(`Deleted (Premium_LRS, 128 GiB) after snapshot ${snapshotIdOf(diskId, 3)}`);
    expect(
      describeResourceSuccess(change({ kind: 'planTier', previousSize: 'P1v3', newSize: 'P0v3' }), undefined),
    ).toBe('Changed from P1v3 to P0v3');
  });
});
