// What the four "open to the internet" checks share: each NIC judged through its subnet's and its
// own NSG, reported on the VM it belongs to (or the NIC when it has none).
import { nameOf, type CheckFailure } from '../security.check';
import { describeExposure, findExposure, listGuardedInterfaces, type ExposedProtocol } from '../nsg-exposure';
import type { SecurityInventory } from '../../../cloud/security-inventory';

export function findExposedInterfaces(
  inventory: SecurityInventory,
  protocol: ExposedProtocol,
  ports: readonly number[] | undefined,
): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const { networkInterface, groups } of listGuardedInterfaces(inventory)) {
    const exposure = findExposure(groups, protocol, ports);
    if (!exposure || !networkInterface.id) continue;
    const machineId = networkInterface.properties?.virtualMachine?.id;
    failures.push({
      resourceId: machineId ?? networkInterface.id,
      resourceName: machineId ? (machineId.split('/').pop() ?? '') : nameOf(networkInterface),
      evidence: `${describeExposure(protocol, exposure)} (NIC '${nameOf(networkInterface)}')`,
    });
  }
  return failures;
}

export const networkReads =
  'Microsoft.Network/networkSecurityGroups, networkInterfaces and virtualNetworks (subnets)';
