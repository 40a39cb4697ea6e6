import { inviteHeading } from '@cloudtrim/contracts/messages';
import { PageHeading } from '../../../components/page-heading';

export function ManageTeam() {
  return <PageHeading title={inviteHeading} />;
}
