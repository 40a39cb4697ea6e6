import type { ActivityLogEntry, ActivityLogResponse } from '@cloudtrim/contracts/activity';
import { pageSize } from '@cloudtrim/contracts/paging';
import { notFound } from '../../lib/http-errors';
import type { ActivityRepository, NewActivityEntry } from './activity.repository';

// The names in the SERVICE NAME column.
export const activityServiceNames = {
  inventory: 'Inventory',
  metrics: 'Metrics',
  tenants: 'Tenants',
  resources: 'Resources',
  recommendations: 'Recommendations',
} as const;

export class ActivityService {
  constructor(private readonly activity: ActivityRepository) {}

  async listEntries(teamId: string, offset: number, resourceId?: string): Promise<ActivityLogResponse> {
    if (resourceId !== undefined && !(await this.activity.knowsResource(teamId, resourceId))) {
      throw notFound('Resource not found.');
    }
    const rows = await this.activity.listForTeam(teamId, {
      offset,
      limit: pageSize,
      resourceArmId: resourceId,
    });
    return rows.map(
      (row): ActivityLogEntry => ({
        ServiceName: row.serviceName,
        ResourceId: row.resourceArmId,
        LogText: row.logText,
        RowCreated: row.createdAt,
      }),
    );
  }

  async record(entries: NewActivityEntry[]): Promise<void> {
    await this.activity.insertMany(entries);
  }
}
