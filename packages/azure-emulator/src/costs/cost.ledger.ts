import { readMachineHardware } from '../arm/arm.views';
import {
  findAppServicePlanSize,
  findDatabaseObjective,
  findDiskTier,
  publicIpHourlyPrices,
  snapshotGiBMonthlyPrice,
  type DiskSkuName,
} from '../catalog/platform.catalog';
import { computeHourlyPrice, computeRegionalPrice, listRetailPriceItems } from '../catalog/price.catalog';
import { findRegion, findVirtualMachineSize } from '../catalog/sku.catalog';
import {
  findHistoryEntry,
  type AppServicePlanRecord,
  type AppServicePlanSku,
  type Fleet,
  type FleetResource,
  type PublicIpAddressRecord,
  type ManagedDiskRecord,
  type SkuChange,
  type SnapshotRecord,
  type SqlDatabaseRecord,
  type SqlDatabaseSku,
  type VirtualMachineRecord,
} from '../fleet/fleet.model';
import { deriveGuid, hashText, hashToUnit, mixHash } from '../fleet/noise.hash';
import { planAnomalies, type InjectedAnomaly } from './cost.anomalies';
import { dayMs, hourMs } from '../time';

// The bill of the fleet, as Cost Management would read it: a pure function of the fleet's seed,
// each tenant's billing profile and the sizes and power states the fleet has recorded. Nothing is
// stored per hour or per day; a query walks the billed items over its days and sums integers.

/** Amounts and quantities are kept as integer millionths, so any grouping adds up exactly. */
export const microUnits = 1_000_000;
/** Cost Management refreshes its data every few hours; an hour shows once a refresh has passed it. */
export const refreshPeriodHours = 4;
/** Days before the last refresh's day whose amounts still move between refreshes. */
export const settlingDays = 3;
const settlingSwing = 0.02;
/** The history Cost Management keeps for the emulated estate: 13 months before the clock's start. */
export const historyDays = 396;
/** Before this many days ahead of the clock's start, the estate follows its seasonal pre-history. */
export const recordedHistoryDays = 30;
const reservationTermDays = 365;

export type CostType = 'ActualCost' | 'AmortizedCost';

/** ChargeType and PricingModel of one line, by index. */
export const costLines = [
  { chargeType: 'Usage', pricingModel: 'OnDemand' },
  { chargeType: 'Usage', pricingModel: 'Reservation' },
  { chargeType: 'UnusedReservation', pricingModel: 'Reservation' },
  { chargeType: 'Purchase', pricingModel: 'Reservation' },
] as const;
const onDemandLine = 0;
const reservedUsageLine = 1;
const unusedReservationLine = 2;
const purchaseLine = 3;

export interface BillingProfile {
  /** Share off list on pay-as-you-go usage (virtual machines, disks, plans, databases). */
  readonly discount: number;
  /** Share of the production VMs running at the start that a 1-year reservation covers. */
  readonly reservedShare: number;
}

// By tenant position: Contoso negotiated 15% off list; Fabrikam pays list.
const billingProfiles: readonly BillingProfile[] = [
  { discount: 0.15, reservedShare: 0.25 },
  { discount: 0, reservedShare: 0.2 },
];

// The disks an anomaly adds are billed as a P10 or an E10 (East US list, a month).
const premiumSsdP10Monthly = findDiskTier('Premium_LRS', 128).monthlyPrice;
const standardSsdE10Monthly = findDiskTier('StandardSSD_LRS', 128).monthlyPrice;

export interface Reservation {
  readonly readId: () => string;
  readonly size: string;
  readonly purchaseDay: number;
  readonly purchaseMicro: number;
}

export interface BilledItem {
  readonly kind: 'virtualMachine' | 'disk' | 'hourly' | 'reservationPurchase';
  /** Lower case, as Cost Management reports resource ids; derived on first use. */
  readonly readResourceId: () => string;
  readonly subscriptionId: string;
  readonly tenantIndex: number;
  readonly resourceGroupName: string;
  readonly location: string;
  readonly serviceName: string;
  readonly meterCategory: string;
  readonly readTags: () => Readonly<Record<string, string>>;
  readonly firstHour: number;
  /** Hours from this one on are not billed (the resource was deleted); undefined: still billed. */
  readonly lastHour?: number;
  readonly isDevelopment: boolean;
  readonly streamKey: number;
  readonly machine?: VirtualMachineRecord;
  readonly reservation?: Reservation;
  /** Hourly price (hourly items) or monthly price (disks) after the tenant's discount. */
  readonly priceMicro: number;
  /** Units an hour of an hourly item counts (plan instances, for instance). */
  readonly unitsPerHour: number;
  readonly discount: number;
  /** Hours [fromHour, toHour) billed at `factor` times the price (a plan moved up a tier). */
  readonly priceSurges?: readonly PriceSurge[];
  /**
   * A disk, snapshot, public IP, plan or database: the API may delete it (the bill ends after the
   * hour holding the deletion) or move it to another SKU (billed at the new one from the next hour).
   */
  readonly resource?: ChangeableResource;
}

export type ChangeableResource =
  | ManagedDiskRecord
  | SnapshotRecord
  | PublicIpAddressRecord
  | AppServicePlanRecord
  | SqlDatabaseRecord;

export interface PriceChange {
  readonly fromHour: number;
  readonly priceMicro: number;
  readonly unitsPerHour: number;
}

export interface PriceSurge {
  readonly fromHour: number;
  readonly toHour: number;
  readonly factor: number;
}

/** Where the data stands at a clock reading: the last refresh and what is still settling. */
export interface DataHorizon {
  /** Hours before this one are in the data. */
  readonly endHour: number;
  /** The UTC day holding the last refresh: partial. */
  readonly lastDay: number;
  /** Counts refreshes, so settling amounts move from one to the next. */
  readonly refreshIndex: number;
}

type LineSink = (day: number, line: number, costMicro: number, quantityMicro: number) => void;

/** Receives a line repeated unchanged on each day of [fromDay, toDay]. */
export type RunSink = (
  fromDay: number,
  toDay: number,
  line: number,
  costMicroPerDay: number,
  quantityMicroPerDay: number,
) => void;

// Most items bill the same every day for months: the day loop stays (a few additions a day) but
// the reader gets one call per unchanged stretch instead of one per day.
class RunCoalescer {
  private readonly fromDays = new Float64Array(costLines.length);
  private readonly toDays = new Float64Array(costLines.length).fill(Number.NaN);
  private readonly costs = new Float64Array(costLines.length);
  private readonly quantities = new Float64Array(costLines.length);
  private target: RunSink = () => undefined;
  readonly add: LineSink = (day, line, costMicro, quantityMicro) => {
    const toDay = this.toDays[line] ?? Number.NaN;
    if (toDay === day - 1 && this.costs[line] === costMicro && this.quantities[line] === quantityMicro) {
      this.toDays[line] = day;
      return;
    }
    this.flushLine(line);
    this.fromDays[line] = day;
    this.toDays[line] = day;
    this.costs[line] = costMicro;
    this.quantities[line] = quantityMicro;
  };

  start(target: RunSink): void {
    this.target = target;
    this.toDays.fill(Number.NaN);
  }

  finish(): void {
    for (let line = 0; line < costLines.length; line += 1) this.flushLine(line);
  }

  private flushLine(line: number): void {
    const toDay = this.toDays[line] ?? Number.NaN;
    if (Number.isNaN(toDay)) return;
    this.target(this.fromDays[line] ?? toDay, toDay, line, this.costs[line] ?? 0, this.quantities[line] ?? 0);
    this.toDays[line] = Number.NaN;
  }
}

// Hourly prices after discount by discount, region, OS and size: a handful for any fleet. A Windows
// machine pays its licence by the hour on top (a reservation's hours included: the emulator counts
// the licence in the reservation, a simplification).
const hourlyMicroPrices = new Map<string, number>();
const machineOsTypes = new WeakMap<VirtualMachineRecord, 'Linux' | 'Windows'>();

function readOsType(machine: VirtualMachineRecord | undefined): 'Linux' | 'Windows' {
  if (!machine) return 'Linux';
  let osType = machineOsTypes.get(machine);
  if (osType === undefined) {
    osType = readMachineHardware(machine).osType;
    machineOsTypes.set(machine, osType);
  }
  return osType;
}

function readHourlyMicro(item: BilledItem, sizeName: string): number {
  const osType = readOsType(item.machine);
  const key = `${item.discount}|${item.location}|${osType}|${sizeName}`;
  let price = hourlyMicroPrices.get(key);
  if (price === undefined) {
    const size = findVirtualMachineSize(sizeName);
    price = size
      ? Math.round(computeHourlyPrice(size, item.location, osType) * (1 - item.discount) * microUnits)
      : 0;
    hourlyMicroPrices.set(key, price);
  }
  return price;
}

// Calendar facts by UTC day, computed once for 2000-2054 so the day loops allocate no Date.
const calendarFirstDay = Date.UTC(2000, 0, 1) / dayMs;
const calendarDays = 20_000;
let calendar: { shutdown: Uint8Array; monthDays: Uint8Array; monthIndex: Int32Array } | undefined;

function readCalendar(): NonNullable<typeof calendar> {
  if (calendar) return calendar;
  const shutdown = new Uint8Array(calendarDays);
  const monthDays = new Uint8Array(calendarDays);
  const monthIndex = new Int32Array(calendarDays);
  for (let index = 0; index < calendarDays; index += 1) {
    const date = new Date((calendarFirstDay + index) * dayMs);
    const weekday = date.getUTCDay();
    const month = date.getUTCMonth();
    const dayOfMonth = date.getUTCDate();
    const isHolidays = (month === 11 && dayOfMonth >= 24) || (month === 0 && dayOfMonth === 1);
    shutdown[index] = weekday === 0 || weekday === 6 || isHolidays ? 1 : 0;
    monthDays[index] = new Date(Date.UTC(date.getUTCFullYear(), month + 1, 0)).getUTCDate();
    monthIndex[index] = date.getUTCFullYear() * 12 + month;
  }
  calendar = { shutdown, monthDays, monthIndex };
  return calendar;
}

// A day outside the calendar holds no data (the history is 13 months back from the clock), so
// its nearest calendar day answers for it.
function readCalendarEntry(day: number): number {
  return Math.min(calendarDays - 1, Math.max(0, day - calendarFirstDay));
}

/** Weekends and the year-end holidays, when development machines used to be shut down. */
export function isSeasonalShutdown(day: number): boolean {
  return readCalendar().shutdown[readCalendarEntry(day)] === 1;
}

export function countDaysInMonth(day: number): number {
  return readCalendar().monthDays[readCalendarEntry(day)] ?? 30;
}

/** Year × 12 + month of a UTC day. */
export function readMonthIndex(day: number): number {
  return readCalendar().monthIndex[readCalendarEntry(day)] ?? 0;
}

function hasChangeWithin(
  history: readonly { readonly fromMinute: number }[],
  from: number,
  to: number,
): boolean {
  for (let index = 1; index < history.length; index += 1) {
    const minute = history[index]?.fromMinute ?? 0;
    if (minute > from && minute < to) return true;
  }
  return false;
}

export class CostLedger {
  private items: BilledItem[] | undefined;
  private anomalies: InjectedAnomaly[] | undefined;
  private readonly itemsBySubscription = new Map<string, BilledItem[]>();
  private readonly startDay: number;
  private readonly coalescer = new RunCoalescer();
  private readonly priceChanges = new WeakMap<
    BilledItem,
    { history: readonly unknown[]; latest: unknown; changes: readonly PriceChange[] }
  >();

  constructor(
    private readonly fleet: Fleet,
    private readonly readNow: () => Date,
    startedMs: number,
  ) {
    this.startDay = Math.floor(startedMs / dayMs);
  }

  /** The first day of the 13 months of history. */
  get firstDay(): number {
    return this.startDay - historyDays;
  }

  /** Days before this one follow the estate's seasonal pre-history; from it on, its recorded one. */
  get recordedFromDay(): number {
    return this.startDay - recordedHistoryDays;
  }

  readProfile(tenantIndex: number): BillingProfile {
    return billingProfiles[tenantIndex] ?? { discount: 0, reservedShare: 0 };
  }

  readHorizon(): DataHorizon {
    const refreshIndex = Math.floor(this.readNow().getTime() / (refreshPeriodHours * hourMs));
    const endHour = refreshIndex * refreshPeriodHours;
    return { endHour, lastDay: Math.floor((endHour - 1) / 24), refreshIndex };
  }

  /** The anomalies injected into the bill, with their scopes and days: the ground truth. */
  listAnomalies(): readonly InjectedAnomaly[] {
    this.items ??= this.buildItems();
    return this.anomalies ?? [];
  }

  /** Items of a subscription, or of one of its resource groups. */
  listItems(subscriptionId: string, resourceGroupName?: string): readonly BilledItem[] {
    this.items ??= this.buildItems();
    const items = this.itemsBySubscription.get(subscriptionId.toLowerCase()) ?? [];
    if (resourceGroupName === undefined) return items;
    const wanted = resourceGroupName.toLowerCase();
    return items.filter((item) => item.resourceGroupName.toLowerCase() === wanted);
  }

  /** Sends every line of an item over days [fromDay, toDay] (inclusive) to the sink, in runs. */
  emitLines(
    item: BilledItem,
    fromDay: number,
    toDay: number,
    costType: CostType,
    horizon: DataHorizon,
    sink: RunSink,
  ): void {
    this.coalescer.start(sink);
    this.emitDays(item, fromDay, toDay, costType, horizon, this.coalescer.add);
    this.coalescer.finish();
  }

  private emitDays(
    item: BilledItem,
    fromDay: number,
    toDay: number,
    costType: CostType,
    horizon: DataHorizon,
    sink: LineSink,
  ): void {
    const first = Math.max(fromDay, this.firstDay);
    const last = Math.min(toDay, horizon.lastDay);
    if (item.kind === 'reservationPurchase') {
      const reservation = item.reservation;
      if (costType === 'AmortizedCost' || !reservation) return;
      if (reservation.purchaseDay >= first && reservation.purchaseDay <= last) {
        sink(reservation.purchaseDay, purchaseLine, reservation.purchaseMicro, microUnits);
      }
      return;
    }
    const machine = item.machine;
    if (machine && machine.sizeHistory.length === 1 && machine.powerHistory.length === 1) {
      this.emitSteadyMachine(item, machine, first, last, costType, horizon, sink);
      return;
    }
    const deletedMs = item.resource && 'deletedMs' in item.resource ? item.resource.deletedMs : undefined;
    const lastHour = Math.min(
      item.lastHour ?? Number.POSITIVE_INFINITY,
      deletedMs === undefined ? Number.POSITIVE_INFINITY : Math.ceil(deletedMs / hourMs),
    );
    const priceChanges = this.readPriceChanges(item);
    for (let day = first; day <= last; day += 1) {
      const startHour = Math.max(day * 24, item.firstHour);
      const endHour = Math.min(day * 24 + 24, horizon.endHour, lastHour);
      if (item.kind === 'virtualMachine') {
        this.emitMachineDay(item, day, startHour, endHour, costType, horizon, sink);
        continue;
      }
      if (startHour >= endHour) continue;
      const hours = endHour - startHour;
      if (priceChanges && priceChanges.length > 1) {
        this.emitChangedPriceDay(item, day, startHour, endHour, priceChanges, horizon, sink);
      } else if (item.kind === 'disk') {
        const share = hours / (24 * countDaysInMonth(day));
        const cost = Math.round(item.priceMicro * share);
        sink(day, onDemandLine, this.settle(item, day, cost, horizon), Math.round(microUnits * share));
      } else {
        let cost = item.priceMicro * hours;
        for (const surge of item.priceSurges ?? []) {
          const surgeHours = Math.min(endHour, surge.toHour) - Math.max(startHour, surge.fromHour);
          if (surgeHours > 0) cost += Math.round(item.priceMicro * surgeHours * (surge.factor - 1));
        }
        sink(
          day,
          onDemandLine,
          this.settle(item, day, cost, horizon),
          hours * item.unitsPerHour * microUnits,
        );
      }
    }
  }

  /**
   * The prices of a resource moved to another SKU through the API, from the whole hour after each
   * change; undefined while it never changed. Worked out again only when its history grows.
   */
  private readPriceChanges(item: BilledItem): readonly PriceChange[] | undefined {
    const resource = item.resource;
    if (!resource || !('skuHistory' in resource) || resource.skuHistory.length < 2) return undefined;
    const history: readonly unknown[] = resource.skuHistory;
    const cached = this.priceChanges.get(item);
    if (cached && cached.history.length === history.length && cached.latest === history.at(-1)) {
      return cached.changes;
    }
    let changes: PriceChange[];
    switch (resource.type) {
      case 'Microsoft.Compute/disks':
        changes = listPriceChanges(resource.skuHistory, (sku) => priceDisk(item, resource, sku));
        break;
      case 'Microsoft.Web/serverfarms':
        changes = listPriceChanges(resource.skuHistory, (sku) => pricePlan(item, resource, sku));
        break;
      case 'Microsoft.Sql/servers/databases':
        changes = listPriceChanges(resource.skuHistory, (sku) => priceDatabase(item, sku));
        break;
    }
    this.priceChanges.set(item, { history, latest: history.at(-1), changes });
    return changes;
  }

  // A day of a resource whose tier changed: each hour at the price in force then.
  private emitChangedPriceDay(
    item: BilledItem,
    day: number,
    startHour: number,
    endHour: number,
    priceChanges: readonly PriceChange[],
    horizon: DataHorizon,
    sink: LineSink,
  ): void {
    let cost = 0;
    let quantity = 0;
    const monthHours = 24 * countDaysInMonth(day);
    for (let index = 0; index < priceChanges.length; index += 1) {
      const change = priceChanges[index];
      if (!change) continue;
      const from = Math.max(startHour, change.fromHour);
      const to = Math.min(endHour, priceChanges[index + 1]?.fromHour ?? Number.POSITIVE_INFINITY);
      if (from >= to) continue;
      const hours = to - from;
      if (item.kind === 'disk') {
        cost += (change.priceMicro * hours) / monthHours;
        quantity += (microUnits * hours) / monthHours;
      } else {
        cost += change.priceMicro * hours;
        quantity += hours * change.unitsPerHour * microUnits;
      }
    }
    sink(day, onDemandLine, this.settle(item, day, Math.round(cost), horizon), Math.round(quantity));
  }

  /** Bills a resource a PUT created after the bill was built (a snapshot). */
  recordCreatedResource(snapshot: SnapshotRecord): void {
    if (!this.items) return;
    const item = this.describeSnapshotItem(snapshot, this.buildDescriber());
    this.items.push(item);
    const listed = this.itemsBySubscription.get(item.subscriptionId) ?? [];
    listed.push(item);
    this.itemsBySubscription.set(item.subscriptionId, listed);
  }

  // A machine never resized, started or stopped through the API: one size and state throughout.
  private emitSteadyMachine(
    item: BilledItem,
    machine: VirtualMachineRecord,
    first: number,
    last: number,
    costType: CostType,
    horizon: DataHorizon,
    sink: LineSink,
  ): void {
    const sizeName = machine.sizeHistory[0]?.size.name ?? '';
    const isBilled = machine.powerHistory[0]?.state !== 'deallocated';
    const hourlyMicro = readHourlyMicro(item, sizeName);
    const reservation = item.reservation;
    const isReservedSize = reservation !== undefined && reservation.size === sizeName;
    const recordedFromDay = this.recordedFromDay;
    for (let day = first; day <= last; day += 1) {
      const startHour = Math.max(day * 24, item.firstHour);
      const endHour = Math.min(day * 24 + 24, horizon.endHour);
      let hours = isBilled && startHour < endHour ? endHour - startHour : 0;
      if (hours > 0 && item.isDevelopment && day < recordedFromDay && isSeasonalShutdown(day)) hours = 0;
      const isReservationActive =
        reservation !== undefined &&
        day >= reservation.purchaseDay &&
        day < reservation.purchaseDay + reservationTermDays;
      if (!isReservationActive) {
        if (hours > 0)
          sink(day, onDemandLine, this.settle(item, day, hours * hourlyMicro, horizon), hours * microUnits);
        continue;
      }
      const coveredHours = isReservedSize ? hours : 0;
      if (!isReservedSize && hours > 0) {
        sink(day, onDemandLine, this.settle(item, day, hours * hourlyMicro, horizon), hours * microUnits);
      }
      if (costType === 'ActualCost') {
        if (coveredHours > 0) sink(day, reservedUsageLine, 0, coveredHours * microUnits);
      } else if (coveredHours > 0) {
        sink(day, reservedUsageLine, readAmortizedShare(reservation, day), coveredHours * microUnits);
      } else {
        sink(day, unusedReservationLine, readAmortizedShare(reservation, day), 0);
      }
    }
  }

  private emitMachineDay(
    item: BilledItem,
    day: number,
    startHour: number,
    endHour: number,
    costType: CostType,
    horizon: DataHorizon,
    sink: LineSink,
  ): void {
    const machine = item.machine;
    if (!machine) return;
    const reservation = item.reservation;
    const isReservationActive =
      reservation !== undefined &&
      day >= reservation.purchaseDay &&
      day < reservation.purchaseDay + reservationTermDays;
    let onDemandHours = 0;
    let onDemandMicro = 0;
    let coveredHours = 0;
    const addHours = (sizeName: string, hours: number) => {
      if (isReservationActive && sizeName === reservation.size) {
        coveredHours += hours;
      } else {
        onDemandHours += hours;
        onDemandMicro += hours * readHourlyMicro(item, sizeName);
      }
    };
    const isPreHistory = day < this.recordedFromDay;
    if (startHour < endHour && !(isPreHistory && item.isDevelopment && isSeasonalShutdown(day))) {
      const startMinute = startHour * 60;
      const endMinute = endHour * 60;
      if (
        isPreHistory ||
        (!hasChangeWithin(machine.sizeHistory, startMinute, endMinute) &&
          !hasChangeWithin(machine.powerHistory, startMinute, endMinute))
      ) {
        // Azure bills a stopped (not deallocated) VM's compute; only deallocation ends the meter.
        if (findHistoryEntry(machine.powerHistory, startMinute).state !== 'deallocated') {
          addHours(findHistoryEntry(machine.sizeHistory, startMinute).size.name, endHour - startHour);
        }
      } else {
        for (let hour = startHour; hour < endHour; hour += 1) {
          const minute = hour * 60;
          if (findHistoryEntry(machine.powerHistory, minute).state === 'deallocated') continue;
          addHours(findHistoryEntry(machine.sizeHistory, minute).size.name, 1);
        }
      }
    }
    if (onDemandHours > 0) {
      sink(day, onDemandLine, this.settle(item, day, onDemandMicro, horizon), onDemandHours * microUnits);
    }
    if (!isReservationActive) return;
    if (costType === 'ActualCost') {
      if (coveredHours > 0) sink(day, reservedUsageLine, 0, coveredHours * microUnits);
      return;
    }
    const share = readAmortizedShare(reservation, day);
    if (coveredHours > 0) sink(day, reservedUsageLine, share, coveredHours * microUnits);
    else sink(day, unusedReservationLine, share, 0);
  }

  // Usage of the last few days is still being rated: it moves a little with each refresh.
  private settle(item: BilledItem, day: number, costMicro: number, horizon: DataHorizon): number {
    const age = horizon.lastDay - day;
    if (age > settlingDays || costMicro === 0) return costMicro;
    const swing =
      (hashToUnit(item.streamKey, day, horizon.refreshIndex) - 0.5) *
      settlingSwing *
      ((settlingDays + 1 - age) / (settlingDays + 1));
    return Math.round(costMicro * (1 + swing));
  }

  private buildDescriber() {
    const tenantIndexBySubscription = new Map<string, number>();
    this.fleet.tenants.forEach((tenant, index) => {
      for (const subscription of tenant.subscriptions) {
        tenantIndexBySubscription.set(subscription.subscriptionId, index);
      }
    });
    const seedKey = this.fleet.seedKey;
    return (resource: FleetResource, kind: BilledItem['kind']) => {
      const tenantIndex = tenantIndexBySubscription.get(resource.subscriptionId) ?? 0;
      const key = mixHash(hashText(resource.id.toLowerCase()));
      // The estate grew over the year: about a third of it arrived during the 13 months.
      const growthDraw = hashToUnit(seedKey, key, 1);
      const arrivalDay =
        growthDraw < 0.3
          ? this.recordedFromDay -
            1 -
            Math.floor(hashToUnit(seedKey, key, 2) * (historyDays - recordedHistoryDays))
          : Number.NEGATIVE_INFINITY;
      const discount = this.readProfile(tenantIndex).discount;
      return {
        kind,
        readResourceId: remember(() => resource.id.toLowerCase()),
        subscriptionId: resource.subscriptionId,
        tenantIndex,
        resourceGroupName: resource.resourceGroupName,
        location: resource.location,
        firstHour: Math.max(Math.ceil(resource.createdMs / hourMs), arrivalDay * 24),
        isDevelopment: resource.tags.environment === 'dev',
        discount,
        unitsPerHour: 1,
        key,
        streamKey: key,
      };
    };
  }

  private describeSnapshotItem(
    snapshot: SnapshotRecord,
    describe: ReturnType<CostLedger['buildDescriber']>,
  ): BilledItem {
    const base = describe(snapshot, 'disk');
    return {
      ...base,
      firstHour: Math.ceil(snapshot.createdMs / hourMs),
      serviceName: 'Storage',
      meterCategory: 'Storage',
      readTags: () => snapshot.tags,
      priceMicro: snapshot.usedGiB * readTenantMicro(base, snapshotGiBMonthlyPrice),
      resource: snapshot,
    };
  }

  private buildItems(): BilledItem[] {
    const items: BilledItem[] = [];
    const reservationPrices = new Map<string, number>();
    for (const price of listRetailPriceItems()) {
      if (price.reservationTerm === '1 Year') {
        reservationPrices.set(`${price.armSkuName}|${price.armRegionName}`, price.retailPrice);
      }
    }
    const tenantIndexBySubscription = new Map<string, number>();
    this.fleet.tenants.forEach((tenant, index) => {
      for (const subscription of tenant.subscriptions) {
        tenantIndexBySubscription.set(subscription.subscriptionId, index);
      }
    });
    const seed = this.fleet.seed;
    const seedKey = this.fleet.seedKey;
    const startMinute = this.startDay * 24 * 60;
    const describe = this.buildDescriber();
    const machineFirstHours = new Map<VirtualMachineRecord, number>();
    for (const machine of this.fleet.virtualMachines) {
      const base = describe(machine, 'virtualMachine');
      machineFirstHours.set(machine, base.firstHour);
      const profile = this.readProfile(base.tenantIndex);
      const initialSize = findHistoryEntry(machine.sizeHistory, startMinute).size.name;
      const isReserved =
        !base.isDevelopment &&
        findHistoryEntry(machine.powerHistory, startMinute).state === 'running' &&
        base.firstHour === Math.ceil(machine.createdMs / hourMs) &&
        hashToUnit(seedKey, base.key, 3) < profile.reservedShare;
      const purchaseDay = this.startDay - 120 - Math.floor(hashToUnit(seedKey, base.key, 4) * 150);
      const reservation: Reservation | undefined = isReserved
        ? {
            readId: remember(
              () =>
                `/providers/microsoft.capacity/reservationorders/${deriveGuid(seed, `reservation-order:${machine.id}`)}/reservations/${deriveGuid(seed, `reservation:${machine.id}`)}`,
            ),
            size: initialSize,
            purchaseDay,
            purchaseMicro: Math.round(
              (reservationPrices.get(`${initialSize}|${machine.location}`) ?? 0) * microUnits,
            ),
          }
        : undefined;
      items.push({
        ...base,
        serviceName: 'Virtual Machines',
        meterCategory: 'Virtual Machines',
        readTags: () => machine.tags,
        machine,
        ...(reservation ? { reservation } : {}),
        priceMicro: 0,
      });
      if (reservation) {
        items.push({
          ...base,
          kind: 'reservationPurchase',
          readResourceId: reservation.readId,
          resourceGroupName: '',
          serviceName: 'Virtual Machines',
          meterCategory: 'Virtual Machines',
          readTags: () => ({}),
          streamKey: mixHash(base.key ^ 0x5bd1e995),
          reservation,
          priceMicro: 0,
        });
      }
    }
    // Every managed disk whatever its VM's state, at the tier its size falls in: an attached disk
    // from its VM's first billed hour, an unattached one from its own.
    for (const disk of this.fleet.managedDisks) {
      const base = describe(disk, 'disk');
      const machine = disk.machine;
      items.push({
        ...base,
        firstHour: (machine && machineFirstHours.get(machine)) ?? base.firstHour,
        isDevelopment: machine ? machine.tags.environment === 'dev' : base.isDevelopment,
        serviceName: 'Storage',
        meterCategory: 'Storage',
        readTags: machine ? () => machine.tags : () => disk.tags,
        streamKey: mixHash(base.key ^ 0x27d4eb2f),
        priceMicro: priceDisk(base, disk, disk.skuHistory[0]?.sku ?? disk.sku).priceMicro,
        resource: disk,
      });
    }
    for (const snapshot of this.fleet.snapshots) items.push(this.describeSnapshotItem(snapshot, describe));
    for (const address of this.fleet.publicIpAddresses) {
      items.push(this.describePublicIpItem(address, describe(address, 'hourly')));
    }
    for (const plan of this.fleet.appServicePlans) {
      items.push(this.describePlanItem(plan, describe(plan, 'hourly')));
    }
    for (const database of this.fleet.sqlDatabases) {
      items.push(this.describeDatabaseItem(database, describe(database, 'hourly')));
    }
    // Anomalies strike resources the bill already has: planned once the items' first hours are known.
    const firstHours = new Map(items.map((item) => [item.readResourceId(), item.firstHour]));
    this.anomalies = planAnomalies(this.fleet, this.firstDay, this.startDay, (resourceId) =>
      firstHours.get(resourceId.toLowerCase()),
    );
    const surgesByPlan = new Map<string, PriceSurge[]>();
    for (const anomaly of this.anomalies) {
      for (const resource of anomaly.resources) {
        if (resource.kind !== 'appServicePlan') continue;
        const surges = surgesByPlan.get(resource.resourceId) ?? [];
        surges.push({
          fromHour: anomaly.fromHour,
          toHour: anomaly.toHour,
          factor: resource.priceFactor ?? 1,
        });
        surgesByPlan.set(resource.resourceId, surges);
      }
    }
    items.forEach((item, index) => {
      const surges = surgesByPlan.get(item.readResourceId());
      if (surges) items[index] = { ...item, priceSurges: surges };
    });
    items.push(...this.buildAnomalyItems(this.anomalies, tenantIndexBySubscription));
    for (const item of items) {
      const listed = this.itemsBySubscription.get(item.subscriptionId) ?? [];
      listed.push(item);
      this.itemsBySubscription.set(item.subscriptionId, listed);
    }
    return items;
  }

  private describePublicIpItem(
    address: PublicIpAddressRecord,
    base: ReturnType<ReturnType<CostLedger['buildDescriber']>>,
  ): BilledItem {
    return {
      ...base,
      serviceName: 'Virtual Network',
      meterCategory: 'Virtual Network',
      readTags: () => address.tags,
      priceMicro: readTenantMicro(base, publicIpHourlyPrices[address.sku]),
      resource: address,
    };
  }

  private describePlanItem(
    plan: AppServicePlanRecord,
    base: ReturnType<ReturnType<CostLedger['buildDescriber']>>,
  ): BilledItem {
    const initial = pricePlan(base, plan, plan.skuHistory[0]?.sku ?? plan.sku);
    return {
      ...base,
      serviceName: 'Azure App Service',
      meterCategory: 'Azure App Service',
      readTags: () => plan.tags,
      priceMicro: initial.priceMicro,
      unitsPerHour: initial.unitsPerHour,
      resource: plan,
    };
  }

  private describeDatabaseItem(
    database: SqlDatabaseRecord,
    base: ReturnType<ReturnType<CostLedger['buildDescriber']>>,
  ): BilledItem {
    return {
      ...base,
      serviceName: 'SQL Database',
      meterCategory: 'SQL Database',
      readTags: () => database.tags,
      priceMicro: priceDatabase(base, database.skuHistory[0]?.sku ?? database.sku).priceMicro,
      resource: database,
    };
  }

  // The machines and disks an anomaly adds: billed from its first hour to its last, then deleted.
  private buildAnomalyItems(
    anomalies: readonly InjectedAnomaly[],
    tenantIndexBySubscription: ReadonlyMap<string, number>,
  ): BilledItem[] {
    const items: BilledItem[] = [];
    for (const anomaly of anomalies) {
      const tenantIndex = tenantIndexBySubscription.get(anomaly.subscriptionId) ?? 0;
      const discount = this.readProfile(tenantIndex).discount;
      const group = this.fleet.resourceGroups.find(
        (candidate) =>
          candidate.subscriptionId === anomaly.subscriptionId && candidate.name === anomaly.resourceGroupName,
      );
      for (const resource of anomaly.resources) {
        if (resource.kind === 'appServicePlan') continue;
        const regionMultiplier = findRegion(resource.location)?.priceMultiplier ?? 1;
        const key = mixHash(hashText(resource.resourceId));
        const size = resource.size === undefined ? undefined : findVirtualMachineSize(resource.size);
        const isMachine = resource.kind === 'virtualMachine';
        const diskMonthly =
          (resource.isPremiumDisk ? premiumSsdP10Monthly : standardSsdE10Monthly) * regionMultiplier;
        items.push({
          kind: isMachine ? 'hourly' : 'disk',
          readResourceId: () => resource.resourceId,
          subscriptionId: anomaly.subscriptionId,
          tenantIndex,
          resourceGroupName: anomaly.resourceGroupName,
          location: resource.location,
          serviceName: isMachine ? 'Virtual Machines' : 'Storage',
          meterCategory: isMachine ? 'Virtual Machines' : 'Storage',
          readTags: () => group?.tags ?? {},
          firstHour: anomaly.fromHour,
          lastHour: anomaly.toHour,
          isDevelopment: false,
          streamKey: key,
          priceMicro: Math.round(
            (isMachine && size ? computeHourlyPrice(size, resource.location, 'Linux') : diskMonthly) *
              (1 - discount) *
              microUnits,
          ),
          unitsPerHour: 1,
          discount,
        });
      }
    }
    return items;
  }
}

type PricedPlace = Pick<BilledItem, 'location' | 'discount'>;
type PriceAtSku = Omit<PriceChange, 'fromHour'>;

/** What the tenant pays, in millionths, for an East US list price in the item's region. */
function readTenantMicro(place: PricedPlace, eastUsPrice: number): number {
  return Math.round(computeRegionalPrice(eastUsPrice, place.location) * (1 - place.discount) * microUnits);
}

/** A month of the tier the disk's size falls in at this SKU. */
function priceDisk(place: PricedPlace, disk: ManagedDiskRecord, sku: DiskSkuName): PriceAtSku {
  return {
    priceMicro: readTenantMicro(place, findDiskTier(sku, disk.sizeGiB).monthlyPrice),
    unitsPerHour: 1,
  };
}

/** An hour of every worker of the plan at this SKU. */
function pricePlan(place: PricedPlace, plan: AppServicePlanRecord, sku: AppServicePlanSku): PriceAtSku {
  const size = findAppServicePlanSize(sku.name);
  const hourly = plan.kind === 'linux' ? size?.linuxHourlyPrice : size?.windowsHourlyPrice;
  return { priceMicro: readTenantMicro(place, hourly ?? 0) * sku.capacity, unitsPerHour: sku.capacity };
}

// A DTU objective is priced by the day, a vCore one by the vCore-hour (Retail Prices' meters).
function priceDatabase(place: PricedPlace, sku: SqlDatabaseSku): PriceAtSku {
  const objective = findDatabaseObjective(sku.serviceObjective);
  const priceMicro =
    objective?.vcoreHourlyPrice !== undefined
      ? readTenantMicro(place, objective.vcoreHourlyPrice) * objective.capacity
      : Math.round(readTenantMicro(place, objective?.dailyPrice ?? 0) / 24);
  return { priceMicro, unitsPerHour: 1 };
}

function listPriceChanges<Sku>(
  history: readonly SkuChange<Sku>[],
  price: (sku: Sku) => PriceAtSku,
): PriceChange[] {
  return history.map((change) => ({
    fromHour: Number.isFinite(change.fromMinute) ? Math.ceil(change.fromMinute / 60) : change.fromMinute,
    ...price(change.sku),
  }));
}

function remember(read: () => string): () => string {
  let value: string | undefined;
  return () => {
    value ??= read();
    return value;
  };
}

/** The reservation's cost on one day of its term: the purchase spread evenly, to the millionth. */
export function readAmortizedShare(reservation: Reservation, day: number): number {
  const index = day - reservation.purchaseDay;
  const total = reservation.purchaseMicro;
  return (
    Math.floor(((index + 1) * total) / reservationTermDays) -
    Math.floor((index * total) / reservationTermDays)
  );
}
