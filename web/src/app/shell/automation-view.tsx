import { lazy } from 'react';
import type { AutomationResource } from '@cloudtrim/contracts/resources';
import { AutomationResourceList } from '../../features/automation/components/automation-resource-list';
import { ResourceCost } from '../../features/costs/components/resource-cost';
import { MetricsPanel } from '../../features/metrics/components/metrics-panel';

// The LOGS modal, with the recommendation list and the charts behind it, is fetched the first time
// one opens.
const ResourceLogsModal = lazy(async () => ({
  default: (await import('./resource-logs-modal')).ResourceLogsModal,
}));

interface AutomationViewProps {
  resources: readonly AutomationResource[];
  invalidates: readonly unknown[];
}

/**
 * SPEC's automation view, as the search shows it: the automation feature's resource list with the
 * metrics feature's panel (the costs feature's last 30 days above its charts) and a LOGS modal of
 * recommendations and automation logs.
 */
export function AutomationView({ resources, invalidates }: AutomationViewProps) {
  return (
    <AutomationResourceList
      resources={resources}
      invalidates={invalidates}
      renderMetrics={(resource, onClose) => (
        <MetricsPanel resourceId={resource.ResourceId} resourceName={resource.ResourceName} onClose={onClose}>
          <ResourceCost resourceId={resource.ResourceId} />
        </MetricsPanel>
      )}
      renderLogsModal={(resource, onHide) => (
        <ResourceLogsModal
          resourceId={resource.ResourceId}
          resourceName={resource.ResourceName}
          isShown
          onHide={onHide}
        />
      )}
    />
  );
}
