import type { ActivityLogEntry, ActivityLogResponse } from '@cloudtrim/contracts/activity';
import { pageSize } from '@cloudtrim/contracts/paging';
import { BoundedMap } from '../../lib/bounded-map';
import { FreshReads } from '../../lib/fresh-read';
import { notFound } from '../../lib/http-errors';
import type { ActivityRepository, NewActivityEntry } from './activity.repository';

// The names in the SERVICE NAME column.
export const activityServiceNames = {
  inventory: 'Inventory',
  metrics: 'Metrics',
  tenants: 'Tenants',
  resources: 'Resources',
  recommendations: 'Recommendations',
  costs: 'Costs',
  budgets: 'Budgets',
  anomalies: 'Cost anomalies',
} as const;

const cachedPageLimit = 1_000;

interface CachedPage {
  version: string;
  body: Promise<Buffer>;
}

export class ActivityService {
  // Pages as JSON bytes, by team, offset and resource, with the team's log version they were read
  // under: a version read (one index step, see ActivityRepository.readTeamVersion) decides whether
  // a page is current, on every process, and a current page costs no query and no serialisation.
  private readonly pages = new BoundedMap<string, CachedPage>(cachedPageLimit);
  // Concurrent calls for a team share a version read that began after each of them asked.
  private readonly versions = new FreshReads<string>();

  constructor(private readonly activity: ActivityRepository) {}

  // listEntries as the JSON the route sends.
  async readEntriesJson(teamId: string, offset: number, resourceId?: string): Promise<Buffer> {
    if (resourceId !== undefined && !(await this.activity.knowsResource(teamId, resourceId))) {
      throw notFound('Resource not found.');
    }
    // Read before the page: a page read later can only be newer than its version says.
    const version = await this.versions.read(teamId, () => this.activity.readTeamVersion(teamId));
    const key = `${teamId} ${offset} ${resourceId?.toLowerCase() ?? ''}`;
    const cached = this.pages.get(key);
    if (cached?.version === version) return cached.body;
    const page: CachedPage = {
      version,
      body: this.readPage(teamId, offset, resourceId).then((entries) => Buffer.from(JSON.stringify(entries))),
    };
    this.pages.remember(key, page);
    try {
      return await page.body;
    } catch (error) {
      if (this.pages.get(key) === page) this.pages.delete(key);
      throw error;
    }
  }

  async listEntries(teamId: string, offset: number, resourceId?: string): Promise<ActivityLogResponse> {
    if (resourceId !== undefined && !(await this.activity.knowsResource(teamId, resourceId))) {
      throw notFound('Resource not found.');
    }
    return this.readPage(teamId, offset, resourceId);
  }

  async record(entries: NewActivityEntry[]): Promise<void> {
    await this.activity.insertMany(entries);
  }

  private async readPage(teamId: string, offset: number, resourceId?: string): Promise<ActivityLogResponse> {
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
}
