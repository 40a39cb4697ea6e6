// The Activity Log's administrative events of one resource (Monitor's eventtypes/management/values),
// every page, through @azure/arm-monitor.
import type { MonitorClient } from '@azure/arm-monitor';
import type { CloudActivityEvent } from '../cloud-provider';

// Only the fields an event is judged by are asked for.
const selectedFields = 'eventTimestamp,operationName,resourceId,status';

export function buildActivityFilter(resourceId: string, since: Date): string {
  return `eventTimestamp ge '${since.toISOString()}' and resourceUri eq '${resourceId.replaceAll("'", "''")}'`;
}

export async function readActivityEvents(
  client: MonitorClient,
  resourceId: string,
  since: Date,
  abortSignal: AbortSignal,
): Promise<CloudActivityEvent[]> {
  const events: CloudActivityEvent[] = [];
  for await (const event of client.activityLogs.list(buildActivityFilter(resourceId, since), {
    select: selectedFields,
    abortSignal,
  })) {
    if (!event.eventTimestamp || !event.operationName?.value) continue;
    events.push({
      resourceId: event.resourceId ?? resourceId,
      operationName: event.operationName.value,
      status: event.status?.value ?? '',
      at: event.eventTimestamp,
    });
  }
  return events.sort((first, second) => second.at.getTime() - first.at.getTime());
}
