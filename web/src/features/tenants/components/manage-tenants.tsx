import { manageTenantsHeading } from '@cloudtrim/contracts/messages';
import { PageHeading } from '../../../components/page-heading';

export function ManageTenants() {
  return <PageHeading title={manageTenantsHeading} />;
}
