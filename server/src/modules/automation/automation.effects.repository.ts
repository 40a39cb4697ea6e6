// What a change does to other modules' rows (the resource's state, tags, hold and flags, the
// recommendation's status), written through their owners' functions in the caller's transaction,
// and the facts of other modules it reads (the region, the size catalogue, a metric's values).
import type { Db } from '../../db/database';
import { readMetricValuesSince } from '../metrics/metric-values.repository';
import { isSmallerVmSize, readVmSizeMemoryGiB } from '../pricing/vm-size-facts.repository';
import { setRecommendationStatus } from '../recommendations/recommendation-status.repository';
import {
  holdResourceRecommendations,
  mergeResourceTags,
  recordResourceState,
  setResourceActiveHours,
  setResourceAutomated,
} from '../resources/resource-writes.repository';
import { readResourceRegion } from '../resources/resources.repository';

export class AutomationEffectsRepository {
  constructor(private readonly db: Db) {}

  async setAutomated(resourceId: string, automated: number): Promise<void> {
    await setResourceAutomated(this.db, resourceId, automated);
  }

  async holdRecommendations(resourceId: string, until: Date): Promise<void> {
    await holdResourceRecommendations(this.db, resourceId, until);
  }

  // Boundaries before `at` count as handled: new hours act from their next boundary.
  async setActiveHours(
    resourceId: string,
    start: number | null,
    end: number | null,
    at: Date,
  ): Promise<void> {
    await setResourceActiveHours(this.db, resourceId, start, end, at);
  }

  // What Azure now says of the resource, so Cloud Resources shows it before the next sync.
  async recordResourceState(
    resourceId: string,
    size: string | null,
    powerState: string | null,
    at: Date,
  ): Promise<void> {
    await recordResourceState(this.db, resourceId, size, powerState, at);
  }

  // The tags a tag change merged in Azure, merged into ours too (before the next sync reads them).
  async mergeResourceTags(resourceId: string, tags: Record<string, string>): Promise<void> {
    await mergeResourceTags(this.db, resourceId, tags);
  }

  // A recommendation is marked applied only while open: one superseded meanwhile stays superseded.
  async setRecommendationStatus(id: number, status: 'applied' | 'held'): Promise<void> {
    await setRecommendationStatus(this.db, id, status);
  }

  readResourceRegion(resourceId: string): Promise<string | undefined> {
    return readResourceRegion(this.db, resourceId);
  }

  // True when `next` has fewer vCPUs or less memory than `previous` in the resource's region; undefined
  // when the size catalogue does not know both.
  isSmallerSize(resourceId: string, previous: string, next: string): Promise<boolean | undefined> {
    return isSmallerVmSize(this.db, resourceId, previous, next);
  }

  readSizeMemoryGiB(resourceId: string, sizeName: string): Promise<number | undefined> {
    return readVmSizeMemoryGiB(this.db, resourceId, sizeName);
  }

  // 1-minute values of one metric since a time, oldest first.
  readMetricValues(resourceId: string, metricName: string, since: Date): Promise<number[]> {
    return readMetricValuesSince(this.db, resourceId, metricName, since);
  }
}
