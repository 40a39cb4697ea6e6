// The Activity Log's administrative events (Microsoft.Insights/eventtypes/management/values) as
// Azure keeps them for 90 days: the write that created each resource, and every start, powerOff and
// deallocate a VM was given through Resource Manager. A shutdown from inside a VM's guest writes
// nothing (Azure logs operations, not what a guest does). Events are derived from the fleet, so the
// log always agrees with the resources' histories.
import { deriveGuid } from '../fleet/noise.hash';
import type { Fleet, FleetResource, PowerState } from '../fleet/fleet.model';
import { dayMs } from '../time';

export const activityLogRetentionDays = 90;

export interface ActivityEvent {
  readonly resourceId: string;
  readonly resourceType: string;
  readonly resourceGroupName: string;
  readonly subscriptionId: string;
  readonly operationName: string;
  readonly operationLabel: string;
  readonly timestampMs: number;
}

export interface ActivityFilter {
  readonly fromMs: number;
  readonly toMs: number;
  readonly resourceUri: string | undefined;
  readonly resourceGroupName: string | undefined;
}

export class ActivityFilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActivityFilterError';
  }
}

const powerOperations: Readonly<Record<PowerState, { name: string; label: string }>> = {
  running: { name: 'Microsoft.Compute/virtualMachines/start/action', label: 'Start Virtual Machine' },
  stopped: { name: 'Microsoft.Compute/virtualMachines/powerOff/action', label: 'Power Off Virtual Machine' },
  deallocated: {
    name: 'Microsoft.Compute/virtualMachines/deallocate/action',
    label: 'Deallocate Virtual Machine',
  },
};

// `eventTimestamp ge '…' and eventTimestamp le '…'` (both required, as Azure asks), optionally
// `and resourceUri eq '…'` or `and resourceGroupName eq '…'`.
export function parseActivityFilter(text: string | undefined, nowMs: number): ActivityFilter {
  if (!text)
    throw new ActivityFilterError("The $filter parameter is required and must hold 'eventTimestamp ge'.");
  let fromMs: number | undefined;
  let toMs: number | undefined;
  let resourceUri: string | undefined;
  let resourceGroupName: string | undefined;
  for (const term of text.split(/\s+and\s+/i)) {
    const match = /^\s*(\w+)\s+(ge|le|eq)\s+'([^']*)'\s*$/i.exec(term);
    if (!match) throw new ActivityFilterError(`The filter term '${term.trim()}' is not supported.`);
    const [, field = '', operator = '', value = ''] = match;
    const key = `${field.toLowerCase()} ${operator.toLowerCase()}`;
    if (key === 'eventtimestamp ge' || key === 'eventtimestamp le') {
      const time = Date.parse(value);
      if (Number.isNaN(time)) throw new ActivityFilterError(`'${value}' is not a valid eventTimestamp.`);
      if (key === 'eventtimestamp ge') fromMs = time;
      else toMs = time;
    } else if (key === 'resourceuri eq') {
      resourceUri = value.toLowerCase();
    } else if (key === 'resourcegroupname eq') {
      resourceGroupName = value.toLowerCase();
    } else {
      throw new ActivityFilterError(`The filter term '${term.trim()}' is not supported.`);
    }
  }
  if (fromMs === undefined) throw new ActivityFilterError("The $filter must hold 'eventTimestamp ge'.");
  const oldest = nowMs - activityLogRetentionDays * dayMs;
  if (fromMs < oldest - dayMs) {
    throw new ActivityFilterError(
      `The start time may be at most ${activityLogRetentionDays} days in the past.`,
    );
  }
  return {
    fromMs: Math.max(fromMs, oldest),
    toMs: Math.min(toMs ?? nowMs, nowMs),
    resourceUri,
    resourceGroupName,
  };
}

// The subscription's events the filter selects, newest first.
export function listActivityEvents(
  fleet: Fleet,
  subscriptionId: string,
  filter: ActivityFilter,
): ActivityEvent[] {
  const resources = filter.resourceUri
    ? [fleet.findResource(filter.resourceUri)].filter(
        (resource): resource is FleetResource =>
          resource !== undefined && resource.subscriptionId.toLowerCase() === subscriptionId.toLowerCase(),
      )
    : fleet.listResources(subscriptionId);
  const events: ActivityEvent[] = [];
  const isWithin = (time: number) => time >= filter.fromMs && time <= filter.toMs;
  for (const resource of resources) {
    if (filter.resourceGroupName && resource.resourceGroupName.toLowerCase() !== filter.resourceGroupName)
      continue;
    const base = {
      resourceId: resource.id,
      resourceType: resource.type,
      resourceGroupName: resource.resourceGroupName,
      subscriptionId: resource.subscriptionId,
    };
    if (isWithin(resource.createdMs)) {
      events.push({
        ...base,
        operationName: `${resource.type}/write`,
        operationLabel: `Create or Update ${resource.type.split('/').at(-1)}`,
        timestampMs: resource.createdMs,
      });
    }
    if (
      resource.type === 'Microsoft.Network/publicIPAddresses' &&
      resource.unassociatedSinceMs !== undefined &&
      resource.unassociatedSinceMs > resource.createdMs &&
      isWithin(resource.unassociatedSinceMs)
    ) {
      events.push({
        ...base,
        operationName: `${resource.type}/write`,
        operationLabel: 'Create or Update Public Ip Address',
        timestampMs: resource.unassociatedSinceMs,
      });
    }
    if (resource.type !== 'Microsoft.Compute/virtualMachines') continue;
    for (const change of resource.powerHistory) {
      if (change.origin !== 'api' || !Number.isFinite(change.fromMinute)) continue;
      const time = change.fromMinute * 60_000;
      if (!isWithin(time)) continue;
      const operation = powerOperations[change.state];
      events.push({
        ...base,
        operationName: operation.name,
        operationLabel: operation.label,
        timestampMs: time,
      });
    }
  }
  return events.sort((first, second) => second.timestampMs - first.timestampMs);
}

// An event as Azure's EventData spells it.
export function describeActivityEvent(event: ActivityEvent, tenantId: string, seed: number) {
  const eventDataId = deriveGuid(
    seed,
    `activity:${event.resourceId.toLowerCase()}:${event.operationName}:${event.timestampMs}`,
  );
  const operationId = deriveGuid(seed, `operation:${eventDataId}`);
  const timestamp = new Date(event.timestampMs).toISOString();
  const provider = event.operationName.split('/')[0] ?? '';
  return {
    authorization: { action: event.operationName, scope: event.resourceId },
    caller: 'ops@contoso.example',
    channels: 'Operation',
    claims: {},
    correlationId: operationId,
    description: '',
    eventDataId,
    eventName: { value: 'EndRequest', localizedValue: 'End request' },
    category: { value: 'Administrative', localizedValue: 'Administrative' },
    id: `${event.resourceId}/events/${eventDataId}/ticks/${event.timestampMs * 10_000 + 621_355_968_000_000_000}`,
    level: 'Informational',
    operationId,
    operationName: { value: event.operationName, localizedValue: event.operationLabel },
    resourceGroupName: event.resourceGroupName,
    resourceProviderName: { value: provider, localizedValue: provider },
    resourceType: { value: event.resourceType, localizedValue: event.resourceType },
    resourceId: event.resourceId,
    status: { value: 'Succeeded', localizedValue: 'Succeeded' },
    subStatus: { value: '', localizedValue: '' },
    eventTimestamp: timestamp,
    submissionTimestamp: new Date(event.timestampMs + 15_000).toISOString(),
    subscriptionId: event.subscriptionId,
    tenantId,
    properties: { statusCode: 'OK' },
  };
}
