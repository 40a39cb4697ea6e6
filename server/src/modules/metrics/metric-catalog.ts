// Which Azure Monitor platform metrics are collected per resource type, and how one minute's value
// is read from them: the metric's primary aggregation, as the Azure portal charts it.
import type { MetricAggregation } from '../../cloud/cloud-provider';

export interface CollectedMetric {
  name: string;
  unit: string;
  aggregation: Exclude<MetricAggregation, 'minimum'>;
  // Azure reports it only for resources whose lower-cased SKU matches: only those get its metric
  // row, so a resource never has a metric that stays empty (and is back-filled again and again).
  skuPattern?: string;
}

export interface MetricTypeCatalog {
  // The ARM type as Azure spells it; also the metric namespace.
  type: string;
  metrics: CollectedMetric[];
  // Read with the regional batch call (up to 50 resources a call). Virtual machines, the bulk of a
  // fleet, are; the few plans and databases of a subscription are read one Resource Manager call
  // each, which also counts against the subscription's read budget the way Azure does.
  isBatchable: boolean;
  // Metrics Azure reports for burstable (B-series) VMs only: collected for the resources that have
  // their metric rows (MetricsRepository.ensureBurstableMetrics gives them to B-series VMs).
  burstableMetrics?: CollectedMetric[];
}

// The VM metrics the analysis, the guard and the recommendations read by name, said once.
export const cpuMetricName = 'Percentage CPU';
export const availableMemoryMetricName = 'Available Memory Bytes';
export const networkInMetricName = 'Network In Total';
export const networkOutMetricName = 'Network Out Total';
export const cpuCreditsRemainingMetricName = 'CPU Credits Remaining';

// DTU service objectives (Basic, S0–S12, P1–P15), as inventory stores a database's SKU.
const dtuObjectivePattern = '^(basic|s[0-9]+|p[0-9]+)$';

const catalogs: MetricTypeCatalog[] = [
  {
    type: 'Microsoft.Compute/virtualMachines',
    isBatchable: true,
    metrics: [
      { name: cpuMetricName, unit: 'Percent', aggregation: 'average' },
      { name: availableMemoryMetricName, unit: 'Bytes', aggregation: 'average' },
      { name: 'Disk Read Operations/Sec', unit: 'CountPerSecond', aggregation: 'average' },
      { name: 'Disk Write Operations/Sec', unit: 'CountPerSecond', aggregation: 'average' },
      { name: networkInMetricName, unit: 'Bytes', aggregation: 'total' },
      { name: networkOutMetricName, unit: 'Bytes', aggregation: 'total' },
    ],
    // The bank's level and what each minute spent: the analysis starts a B size's bank from it.
    burstableMetrics: [
      { name: cpuCreditsRemainingMetricName, unit: 'Count', aggregation: 'average' },
      { name: 'CPU Credits Consumed', unit: 'Count', aggregation: 'average' },
    ],
  },
  {
    type: 'Microsoft.Web/serverfarms',
    isBatchable: false,
    metrics: [
      { name: 'CpuPercentage', unit: 'Percent', aggregation: 'average' },
      { name: 'MemoryPercentage', unit: 'Percent', aggregation: 'average' },
    ],
  },
  {
    type: 'Microsoft.Sql/servers/databases',
    isBatchable: false,
    metrics: [
      { name: 'cpu_percent', unit: 'Percent', aggregation: 'average' },
      // What the objective finder reads of a DTU database; Azure has no data for a vCore one.
      {
        name: 'dtu_consumption_percent',
        unit: 'Percent',
        aggregation: 'average',
        skuPattern: dtuObjectivePattern,
      },
      { name: 'storage_percent', unit: 'Percent', aggregation: 'maximum' },
      // Bytes the data takes: a smaller objective must still hold them.
      { name: 'storage', unit: 'Bytes', aggregation: 'maximum' },
    ],
  },
];

const catalogsByLowerType = new Map(catalogs.map((catalog) => [catalog.type.toLowerCase(), catalog]));

export function listMetricCatalogs(): readonly MetricTypeCatalog[] {
  return catalogs;
}

// Every metric a catalog may collect, the burstable-only ones included.
export function listCollectedMetrics(catalog: MetricTypeCatalog): readonly CollectedMetric[] {
  return catalog.burstableMetrics ? [...catalog.metrics, ...catalog.burstableMetrics] : catalog.metrics;
}

// B-series names: Standard_B, then the vCPUs (Standard_B2s, Standard_B4ms, Standard_B2ls_v2, …).
export const burstableSizePattern = '^standard_b[0-9]';

export function findMetricCatalog(type: string): MetricTypeCatalog | undefined {
  return catalogsByLowerType.get(type.toLowerCase());
}
