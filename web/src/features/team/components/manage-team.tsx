import { inviteHeading, yourTeamHeading } from '@cloudtrim/contracts/messages';
import { PageHeading } from '../../../components/page-heading';
import { InviteColleagueForm } from './invite-colleague-form';
import { TeamTable } from './team-table';

export function ManageTeam() {
  return (
    <>
      <PageHeading title={inviteHeading} />
      <InviteColleagueForm />
      <h2 className="h5 fw-bold mb-3">{yourTeamHeading}</h2>
      <TeamTable />
    </>
  );
}
