import { ActivityLogList } from './activity-log-list';
import { PageHeading } from '../../../components/page-heading';

export function RecentActivity() {
  return (
    <>
      <PageHeading title="Recent Activity" />
      <ActivityLogList />
    </>
  );
}
