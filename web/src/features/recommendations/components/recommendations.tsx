import { PageHeading } from '../../../components/page-heading';

export function Recommendations() {
  return <PageHeading title="Recommendations" />;
}
