// The 1-minute points and hourly aggregates are partitioned by range on their time column
// (migration 0021; the packed days are not, see ARCHITECTURE.md): the hourly
// maintenance (the metrics purge) creates each table's partitions ahead of time and drops those
// wholly past retention, instead of deleting rows. A row at a time no partition covers yet lands in
// the table's DEFAULT partition and moves into its partition when that is created.
import { dayMs, hourMs, weekMs } from '../../lib/time';

export const pointRetentionMs = 48 * hourMs;
export const hourlyRetentionMs = 90 * dayMs;

export interface PartitionPlan {
  table: 'metric_point' | 'metric_hourly';
  // The range partition key.
  key: 'time' | 'hour';
  // Each partition's span, cut from Monday 2000-01-03T00:00Z.
  strideMs: number;
  retentionMs: number;
  // How far past now partitions are made, so a missed run or two leaves no write to the default.
  aheadMs: number;
}

export interface PartitionMaintenance {
  created: number;
  dropped: number;
  // Rows past retention deleted: from the default partitions, and the packed days (metric_day).
  deleted: number;
}

// The points by the hour: dropped an hour after they expire, at most; at 10,000 VMs an hour holds
// millions of rows. Hours by the week: 14 partitions for the 90 days.
export const metricPartitionPlans: readonly PartitionPlan[] = [
  {
    table: 'metric_point',
    key: 'time',
    strideMs: hourMs,
    retentionMs: pointRetentionMs,
    aheadMs: 6 * hourMs,
  },
  {
    table: 'metric_hourly',
    key: 'hour',
    strideMs: weekMs,
    retentionMs: hourlyRetentionMs,
    aheadMs: 14 * dayMs,
  },
];
