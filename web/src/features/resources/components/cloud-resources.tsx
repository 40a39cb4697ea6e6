import { PageHeading } from '../../../components/page-heading';

export function CloudResources() {
  return <PageHeading title="Cloud Resources" />;
}
