import { PageHeading } from '../../../components/page-heading';

export function PendingAutomation() {
  return <PageHeading title="Pending Automation" />;
}
