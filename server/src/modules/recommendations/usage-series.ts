// The hourly use of an App Service plan or a SQL database, as the waste finders read it: per metric
// the hours' means (and for storage the hours' peaks), NaN where the hour has none.
export interface UsageSeries {
  cpuAverage?: Float64Array;
  memoryAverage?: Float64Array;
  dtuAverage?: Float64Array;
  storageMaximum?: Float64Array;
  storagePercentMaximum?: Float64Array;
}

// Azure Monitor's names for them: a plan's CpuPercentage and MemoryPercentage; a database's
// cpu_percent (vCore), dtu_consumption_percent (DTU), storage (bytes) and storage_percent.
export const usageMetrics = {
  CpuPercentage: { series: 'cpuAverage', aggregate: 'average' },
  MemoryPercentage: { series: 'memoryAverage', aggregate: 'average' },
  cpu_percent: { series: 'cpuAverage', aggregate: 'average' },
  dtu_consumption_percent: { series: 'dtuAverage', aggregate: 'average' },
  storage: { series: 'storageMaximum', aggregate: 'maximum' },
  storage_percent: { series: 'storagePercentMaximum', aggregate: 'maximum' },
} as const satisfies Record<string, { series: keyof UsageSeries; aggregate: 'average' | 'maximum' }>;

export type UsageMetricName = keyof typeof usageMetrics;

export function isUsageMetricName(name: string): name is UsageMetricName {
  return Object.hasOwn(usageMetrics, name);
}
