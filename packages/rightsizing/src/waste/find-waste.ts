// The waste finders by resource type: which kinds a resource is judged for, and their findings.
import { findDatabaseWaste } from './database-waste';
import { findDiskWaste } from './disk-waste';
import { findPlanWaste } from './plan-waste';
import { findPublicIpWaste } from './public-ip-waste';
import { findStoppedVmWaste } from './stopped-vm-waste';
import type { WastePriceBook } from './waste-prices';
import type { WasteCandidate, WasteFinding } from './waste.types';

export const wasteResourceTypes = {
  disk: 'microsoft.compute/disks',
  publicIp: 'microsoft.network/publicipaddresses',
  virtualMachine: 'microsoft.compute/virtualmachines',
  plan: 'microsoft.web/serverfarms',
  database: 'microsoft.sql/servers/databases',
} as const;

export function findWaste(resource: WasteCandidate, prices: WastePriceBook, now: number): WasteFinding[] {
  switch (resource.type.toLowerCase()) {
    case wasteResourceTypes.disk:
      return findDiskWaste(resource, prices, now);
    case wasteResourceTypes.publicIp:
      return findPublicIpWaste(resource, prices, now);
    case wasteResourceTypes.virtualMachine:
      return findStoppedVmWaste(resource, now);
    case wasteResourceTypes.plan:
      return findPlanWaste(resource, prices, now);
    case wasteResourceTypes.database:
      return findDatabaseWaste(resource, prices);
    default:
      return [];
  }
}
