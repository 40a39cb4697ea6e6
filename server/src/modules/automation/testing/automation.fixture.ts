// What the automation tests share: running VMs of a connected tenant picked once each, their sizes
// as the emulator holds them, and recommendations inserted as an analysis would write them.
import { readCurrentPowerState, readCurrentSize } from '@cloudtrim/azure-emulator/arm/arm.views';
import { listSizesOfferedInRegion } from '@cloudtrim/azure-emulator/catalog/sku.catalog';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/database';
import { recommendations, resources } from '../../../db/schema';
import type { CloudTestContext } from '../../../../test/azure-emulator';

export type ResourceRow = typeof resources.$inferSelect;

export function createAutomationFixture(
  context: () => CloudTestContext,
  db: () => Db,
  teamId: () => string,
  defaultTenantId: () => string,
) {
  const usedResourceIds = new Set<string>();

  function readVm(armId: string) {
    const machine = context().emulator.fleet.findVirtualMachine(armId);
    if (!machine) throw new Error(`no VM ${armId}`);
    return { machine, size: readCurrentSize(machine), powerState: readCurrentPowerState(machine) };
  }

  // A smaller size of the VM's family in its region, if the region offers one.
  function findSmallerSibling(resource: ResourceRow) {
    const { size } = readVm(resource.armId);
    return listSizesOfferedInRegion(resource.region).find(
      (candidate) => candidate.family === size.family && candidate.vcpus < size.vcpus,
    );
  }

  // A smaller size of the VM's family (a resize down), or any size of another family.
  function pickTargetSize(resource: ResourceRow, isSameFamily: boolean): string {
    const { size } = readVm(resource.armId);
    const target = isSameFamily
      ? findSmallerSibling(resource)
      : listSizesOfferedInRegion(resource.region).find((candidate) => candidate.family !== size.family);
    if (!target) throw new Error('no target size');
    return target.name;
  }

  // A running VM of the tenant that no other test used.
  async function pickRunningVm(options: { tenant?: string } = {}): Promise<ResourceRow> {
    const rows = await db()
      .select()
      .from(resources)
      .where(
        and(
          eq(resources.tenantId, options.tenant ?? defaultTenantId()),
          eq(resources.type, 'Microsoft.Compute/virtualMachines'),
          eq(resources.powerState, 'running'),
        ),
      );
    const row = rows.find(
      (candidate) => !usedResourceIds.has(candidate.id) && findSmallerSibling(candidate) !== undefined,
    );
    if (!row) throw new Error('no running VM left');
    usedResourceIds.add(row.id);
    return row;
  }

  async function insertRecommendation(
    resource: ResourceRow,
    fields: Partial<typeof recommendations.$inferInsert> = {},
  ): Promise<number> {
    const [row] = await db()
      .insert(recommendations)
      .values({
        teamId: teamId(),
        tenantId: resource.tenantId,
        resourceId: resource.id,
        kind: 'resize',
        predictionMethod: 'cloudtrim-forecast',
        currentSize: resource.sku,
        targetSize: null,
        recommendation: 'Resize',
        annualCostSavings: 120,
        status: 'open',
        ...fields,
      })
      .returning({ id: recommendations.id });
    return row!.id;
  }

  return { readVm, findSmallerSibling, pickTargetSize, pickRunningVm, insertRecommendation };
}
