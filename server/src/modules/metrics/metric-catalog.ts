// Which Azure Monitor platform metrics are collected per resource type, and how one minute's value
// is read from them: the metric's primary aggregation, as the Azure portal charts it.
import type { MetricAggregation } from '../../cloud/cloud-provider';

export interface CollectedMetric {
  name: string;
  unit: string;
  aggregation: Exclude<MetricAggregation, 'minimum'>;
}

export interface MetricTypeCatalog {
  // The ARM type as Azure spells it; also the metric namespace.
  type: string;
  metrics: CollectedMetric[];
  // Read with the regional batch call (up to 50 resources a call). Virtual machines, the bulk of a
  // fleet, are; the few plans and databases of a subscription are read one Resource Manager call
  // each, which also counts against the subscription's read budget the way Azure does.
  isBatchable: boolean;
}

const catalogs: MetricTypeCatalog[] = [
  {
    type: 'Microsoft.Compute/virtualMachines',
    isBatchable: true,
    metrics: [
      { name: 'Percentage CPU', unit: 'Percent', aggregation: 'average' },
      { name: 'Available Memory Bytes', unit: 'Bytes', aggregation: 'average' },
      { name: 'Disk Read Operations/Sec', unit: 'CountPerSecond', aggregation: 'average' },
      { name: 'Disk Write Operations/Sec', unit: 'CountPerSecond', aggregation: 'average' },
      { name: 'Network In Total', unit: 'Bytes', aggregation: 'total' },
      { name: 'Network Out Total', unit: 'Bytes', aggregation: 'total' },
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
      { name: 'storage_percent', unit: 'Percent', aggregation: 'maximum' },
    ],
  },
];

const catalogsByLowerType = new Map(catalogs.map((catalog) => [catalog.type.toLowerCase(), catalog]));

export function listMetricCatalogs(): readonly MetricTypeCatalog[] {
  return catalogs;
}

export function findMetricCatalog(type: string): MetricTypeCatalog | undefined {
  return catalogsByLowerType.get(type.toLowerCase());
}
