import { ActivityLogList } from '../../features/activity/components/activity-log-list';
import { CloudResources } from '../../features/resources/components/cloud-resources';

/** /resources: the Cloud Resources table, whose LOGS view shows the activity feature's log. */
export function ResourcesRoute() {
  return (
    <CloudResources
      renderActivityLog={(resourceId) => <ActivityLogList key={resourceId} resourceId={resourceId} />}
    />
  );
}
