import { PageHeading } from '../../../components/page-heading';

export function Sandbox() {
  return <PageHeading title="Sandbox" />;
}
