import { findVirtualMachineSize, isSizeOfferedInRegion } from '../catalog/sku.catalog';
import type { Fleet, FleetResource, ResourceGroupRecord } from '../fleet/fleet.model';
import { createSeededRandom } from '../fleet/noise.hash';

// The mistakes a real estate's bill shows, placed on known days of the emulated history (and of
// the weeks after the clock's start, so a running emulator meets them too): a scale-out nobody
// scaled back in, a large machine someone forgot, an App Service plan moved up a tier or two for
// an incident and left there. Each lasts days, ends, and leaves weeks of ordinary bill around it.

export type AnomalyKind = 'scaleOut' | 'forgottenMachine' | 'planTierJump';

/** A stretch of one scope's bill that no ordinary day would explain: the ground truth. */
export interface InjectedAnomaly {
  readonly kind: AnomalyKind;
  readonly subscriptionId: string;
  readonly resourceGroupName: string;
  /** The service whose cost jumps (the new machines' disks add a little to Storage as well). */
  readonly serviceName: string;
  /** The first and last hours billed abnormally (end exclusive), and their UTC days (inclusive). */
  readonly fromHour: number;
  readonly toHour: number;
  readonly fromDay: number;
  readonly toDay: number;
  /** The resources billed: new machines and their disks, or the plan whose price jumped. */
  readonly resources: readonly AnomalyResource[];
}

export interface AnomalyResource {
  readonly kind: 'virtualMachine' | 'disk' | 'appServicePlan';
  /** ARM id, lower case as Cost Management reports it. */
  readonly resourceId: string;
  readonly location: string;
  /** A machine's size; a plan's price factor while the anomaly lasts. */
  readonly size?: string;
  readonly priceFactor?: number;
  readonly isPremiumDisk?: boolean;
}

// The first anomaly comes this long after the history's first day (a detector needs weeks of an
// ordinary bill first), then one per subscription every 3 to 9 weeks, on to this many days after
// the clock's start.
const firstAnomalyDays = 70;
const minimumGapDays = 21;
const maximumGapDays = 63;
const daysAfterStart = 120;
// The fleet's first subscription has one anomaly begun this many days before the clock's start, so
// a fresh emulator's bill holds one inside the 7 days Cloudtrim alerts on (a newcomer sees one).
const recentAnomalyDays = 4;
const longestAnomalyDays = 25;
// What an anomaly strikes has been billed this long before it.
const establishedDays = 14;
// A forgotten machine is one of the large sizes people test on.
const largeSizes = ['Standard_E32s_v5', 'Standard_D32s_v5', 'Standard_E16s_v5', 'Standard_F32s_v2'];

/**
 * The anomalies of the fleet's bill, from `firstDay` (the history's first) to after `startDay`.
 * `readFirstHour` tells from when a resource is billed: an anomaly strikes what has been there a while.
 */
export function planAnomalies(
  fleet: Fleet,
  firstDay: number,
  startDay: number,
  readFirstHour: (resourceId: string) => number | undefined,
): InjectedAnomaly[] {
  const anomalies: InjectedAnomaly[] = [];
  const firstSubscriptionId = fleet.tenants[0]?.subscriptions[0]?.subscriptionId;
  for (const tenant of fleet.tenants) {
    for (const subscription of tenant.subscriptions) {
      let needsRecent = subscription.subscriptionId === firstSubscriptionId;
      let lastEnd = Number.NEGATIVE_INFINITY;
      const random = createSeededRandom(fleet.seed, `cost-anomalies:${subscription.subscriptionId}`);
      const groups = fleet.resourceGroups.filter(
        (group) => group.subscriptionId === subscription.subscriptionId,
      );
      let day = firstDay + firstAnomalyDays + Math.floor(random() * (maximumGapDays - minimumGapDays));
      const isEstablished = (resource: FleetResource) =>
        (readFirstHour(resource.id) ?? Number.POSITIVE_INFINITY) <= (day - establishedDays) * 24;
      const machinesOf = (group: ResourceGroupRecord) =>
        fleet.virtualMachines.filter(
          (machine) =>
            machine.subscriptionId === group.subscriptionId &&
            machine.resourceGroupName === group.name &&
            isEstablished(machine),
        );
      const plansOf = (group: ResourceGroupRecord) =>
        fleet.appServicePlans.filter(
          (plan) =>
            plan.subscriptionId === group.subscriptionId &&
            plan.resourceGroupName === group.name &&
            isEstablished(plan),
        );
      let index = 0;
      while (day < startDay + daysAfterStart) {
        const withMachines = groups.filter((group) => machinesOf(group).length > 0);
        const withPlans = groups.filter((group) => plansOf(group).length > 0);
        if (withMachines.length + withPlans.length === 0) {
          day += minimumGapDays;
          continue;
        }
        const recentDay = startDay - recentAnomalyDays;
        // The anomaly that would otherwise run into the weeks before it (or come after it) is it.
        const isRecent =
          needsRecent &&
          day + longestAnomalyDays + minimumGapDays >= recentDay &&
          lastEnd < recentDay - minimumGapDays &&
          withMachines.length > 0;
        if (needsRecent && (isRecent || day >= recentDay)) needsRecent = false;
        if (isRecent) day = recentDay;
        const draw = random();
        const kind: AnomalyKind = isRecent
          ? 'scaleOut'
          : withPlans.length > 0 && (draw < 1 / 3 || withMachines.length === 0)
            ? 'planTierJump'
            : draw < 2 / 3 || withPlans.length === 0
              ? 'scaleOut'
              : 'forgottenMachine';
        const fromHour = day * 24 + Math.floor(random() * 24);
        const base = { subscriptionId: subscription.subscriptionId, fromHour, fromDay: day };
        const prefix = `/subscriptions/${subscription.subscriptionId}/resourcegroups/`;
        let anomaly: InjectedAnomaly;
        if (kind === 'planTierJump') {
          const group = pick(withPlans, random);
          const plan = pick(plansOf(group), random);
          // Up one tier (twice the price) or two (four times), for 4 to 20 days.
          const toHour = fromHour + 24 * (4 + Math.floor(random() * 17)) + Math.floor(random() * 24);
          anomaly = {
            ...base,
            kind,
            resourceGroupName: group.name,
            serviceName: 'Azure App Service',
            toHour,
            toDay: Math.floor((toHour - 1) / 24),
            resources: [
              {
                kind: 'appServicePlan',
                resourceId: plan.id.toLowerCase(),
                location: plan.location,
                priceFactor: random() < 0.5 ? 2 : 4,
              },
            ],
          };
        } else if (kind === 'scaleOut') {
          const group = pick(withMachines, random);
          const model = pick(machinesOf(group), random);
          const size = model.sizeHistory[0]?.size.name ?? 'Standard_D2s_v5';
          // 3 to 8 more instances of one of the group's machines, for 3 to 12 days.
          const count = 3 + Math.floor(random() * 6);
          const toHour = fromHour + 24 * (3 + Math.floor(random() * 10)) + Math.floor(random() * 24);
          const resources: AnomalyResource[] = [];
          for (let instance = 0; instance < count; instance += 1) {
            const name = `${model.name}-scale-${index}-${instance + 1}`.toLowerCase();
            const groupId = `${prefix}${group.name.toLowerCase()}`;
            resources.push(
              {
                kind: 'virtualMachine',
                resourceId: `${groupId}/providers/microsoft.compute/virtualmachines/${name}`,
                location: model.location,
                size,
              },
              {
                kind: 'disk',
                resourceId: `${groupId}/providers/microsoft.compute/disks/${name}_osdisk`,
                location: model.location,
                isPremiumDisk: model.tags.environment !== 'dev',
              },
            );
          }
          anomaly = {
            ...base,
            kind,
            resourceGroupName: group.name,
            serviceName: 'Virtual Machines',
            toHour,
            toDay: Math.floor((toHour - 1) / 24),
            resources,
          };
        } else {
          const group = pick(withMachines, random);
          const offered = largeSizes.filter(
            (size) => findVirtualMachineSize(size) && isSizeOfferedInRegion(size, group.location),
          );
          const size = offered.length > 0 ? pick(offered, random) : 'Standard_E16s_v5';
          // Left running for 7 to 24 days before someone noticed.
          const toHour = fromHour + 24 * (7 + Math.floor(random() * 18)) + Math.floor(random() * 24);
          const name = `vm-test-${index}-${Math.floor(random() * 1000)}`;
          const groupId = `${prefix}${group.name.toLowerCase()}`;
          anomaly = {
            ...base,
            kind,
            resourceGroupName: group.name,
            serviceName: 'Virtual Machines',
            toHour,
            toDay: Math.floor((toHour - 1) / 24),
            resources: [
              {
                kind: 'virtualMachine',
                resourceId: `${groupId}/providers/microsoft.compute/virtualmachines/${name}`,
                location: group.location,
                size,
              },
              {
                kind: 'disk',
                resourceId: `${groupId}/providers/microsoft.compute/disks/${name}_osdisk`,
                location: group.location,
                isPremiumDisk: true,
              },
            ],
          };
        }
        anomalies.push(anomaly);
        lastEnd = anomaly.toDay;
        index += 1;
        day = anomaly.toDay + minimumGapDays + Math.floor(random() * (maximumGapDays - minimumGapDays + 1));
      }
    }
  }
  return anomalies;
}

function pick<Value>(values: readonly Value[], random: () => number): Value {
  const value = values[Math.floor(random() * values.length)];
  if (value === undefined) throw new Error('Nothing to pick from.');
  return value;
}
