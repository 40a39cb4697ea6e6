import type { FleetResource } from '../fleet/fleet.model';

export const aggregationNames = ['average', 'minimum', 'maximum', 'total', 'count'] as const;
export type AggregationName = (typeof aggregationNames)[number];

export interface MetricDefinition {
  readonly name: string;
  readonly description: string;
  readonly unit: 'Percent' | 'Bytes' | 'CountPerSecond' | 'Count';
  readonly primaryAggregation: AggregationName;
  readonly category: string;
  /** How far a minute's minimum and maximum stray from its average, relative to it. */
  readonly spread: number;
  /** Upper bound of minute maxima (100 for percentages). */
  readonly ceiling: number;
}

export interface MetricNamespace {
  readonly namespace: string;
  readonly metrics: readonly MetricDefinition[];
}

const unbounded = Number.POSITIVE_INFINITY;

// Index order matters: the samplers write values in this order.
export const virtualMachineNamespace: MetricNamespace = {
  namespace: 'Microsoft.Compute/virtualMachines',
  metrics: [
    {
      name: 'Percentage CPU',
      description:
        'The percentage of allocated compute units that are currently in use by the Virtual Machine(s)',
      unit: 'Percent',
      primaryAggregation: 'average',
      category: 'Capacity',
      spread: 0.35,
      ceiling: 100,
    },
    {
      name: 'Available Memory Bytes',
      description:
        'Amount of physical memory, in bytes, immediately available for allocation to a process or for system use in the Virtual Machine',
      unit: 'Bytes',
      primaryAggregation: 'average',
      category: 'Capacity',
      spread: 0.03,
      ceiling: unbounded,
    },
    {
      name: 'Network In Total',
      description:
        'The number of bytes received on all network interfaces by the Virtual Machine(s) (Incoming Traffic)',
      unit: 'Bytes',
      primaryAggregation: 'total',
      category: 'Network',
      spread: 0.5,
      ceiling: unbounded,
    },
    {
      name: 'Network Out Total',
      description:
        'The number of bytes out on all network interfaces by the Virtual Machine(s) (Outgoing Traffic)',
      unit: 'Bytes',
      primaryAggregation: 'total',
      category: 'Network',
      spread: 0.5,
      ceiling: unbounded,
    },
    {
      name: 'Disk Read Operations/Sec',
      description: 'Disk Read IOPS',
      unit: 'CountPerSecond',
      primaryAggregation: 'average',
      category: 'Disk',
      spread: 0.6,
      ceiling: unbounded,
    },
    {
      name: 'Disk Write Operations/Sec',
      description: 'Disk Write IOPS',
      unit: 'CountPerSecond',
      primaryAggregation: 'average',
      category: 'Disk',
      spread: 0.6,
      ceiling: unbounded,
    },
    // Reported for B-series (burstable) VMs only; other sizes have no data, as in Azure.
    {
      name: 'CPU Credits Remaining',
      description: 'Total number of credits available to burst. Only available on B-series burstable VMs',
      unit: 'Count',
      primaryAggregation: 'average',
      category: 'Capacity',
      spread: 0,
      ceiling: unbounded,
    },
    {
      name: 'CPU Credits Consumed',
      description:
        'Total number of credits consumed by the Virtual Machine. Only available on B-series burstable VMs',
      unit: 'Count',
      primaryAggregation: 'average',
      category: 'Capacity',
      spread: 0,
      ceiling: unbounded,
    },
  ],
};

export const appServicePlanNamespace: MetricNamespace = {
  namespace: 'Microsoft.Web/serverfarms',
  metrics: [
    {
      name: 'CpuPercentage',
      description: 'The average CPU used across all instances of the plan.',
      unit: 'Percent',
      primaryAggregation: 'average',
      category: 'Capacity',
      spread: 0.3,
      ceiling: 100,
    },
    {
      name: 'MemoryPercentage',
      description: 'The average memory used across all instances of the plan.',
      unit: 'Percent',
      primaryAggregation: 'average',
      category: 'Capacity',
      spread: 0.05,
      ceiling: 100,
    },
  ],
};

export const sqlDatabaseNamespace: MetricNamespace = {
  namespace: 'Microsoft.Sql/servers/databases',
  metrics: [
    {
      name: 'cpu_percent',
      description: 'CPU percentage',
      unit: 'Percent',
      primaryAggregation: 'average',
      category: 'Basic',
      spread: 0.3,
      ceiling: 100,
    },
    {
      name: 'storage_percent',
      description: 'Data space used percent',
      unit: 'Percent',
      primaryAggregation: 'maximum',
      category: 'Basic',
      spread: 0,
      ceiling: 100,
    },
    // Reported for DTU-based databases only; vCore databases have no data, as in Azure.
    {
      name: 'dtu_consumption_percent',
      description: 'DTU percentage',
      unit: 'Percent',
      primaryAggregation: 'average',
      category: 'Basic',
      spread: 0.3,
      ceiling: 100,
    },
    {
      name: 'storage',
      description: 'Data space used',
      unit: 'Bytes',
      primaryAggregation: 'maximum',
      category: 'Basic',
      spread: 0,
      ceiling: unbounded,
    },
  ],
};

export function findMetricNamespace(resource: FleetResource): MetricNamespace | undefined {
  switch (resource.type) {
    case 'Microsoft.Compute/virtualMachines':
      return virtualMachineNamespace;
    case 'Microsoft.Web/serverfarms':
      return appServicePlanNamespace;
    case 'Microsoft.Sql/servers/databases':
      return sqlDatabaseNamespace;
    default:
      return undefined;
  }
}

export const supportedTimeGrains = [
  'PT1M',
  'PT5M',
  'PT15M',
  'PT30M',
  'PT1H',
  'PT6H',
  'PT12H',
  'P1D',
] as const;
export const metricRetention = 'P93D';
