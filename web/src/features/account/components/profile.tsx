import { PageHeading } from '../../../components/page-heading';

export function Profile() {
  return <PageHeading title="Profile" />;
}
