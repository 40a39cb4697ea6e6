import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { loadingText, noTeamMembersText } from '@cloudtrim/contracts/messages';
import { describeLoadError } from '../../../lib/load-failure';
import { useRemoveTeamMember } from '../api/remove-team-member';
import { useTeam } from '../api/get-team';
import '../../../components/data-views.css';

/** 'Your Team': every member and pending invitation, each with a REMOVE button. */
export function TeamTable() {
  const team = useTeam();
  const removeMember = useRemoveTeamMember();
  const removingEmail = removeMember.isPending ? removeMember.variables.emailAddress : null;

  if (team.isPending) {
    return (
      <div className="d-flex align-items-center gap-2 text-body-secondary" role="status">
        <Spinner animation="border" size="sm" aria-hidden="true" />
        {loadingText}
      </div>
    );
  }
  if (team.isError) return <Alert variant="danger">{describeLoadError(team.error)}</Alert>;

  return (
    <>
      {removeMember.isError ? (
        <Alert variant="danger" dismissible onClose={() => removeMember.reset()}>
          {removeMember.error.message}
        </Alert>
      ) : null}
      {team.data.length === 0 ? (
        <div className="data-panel">
          <p className="data-empty">{noTeamMembersText}</p>
        </div>
      ) : (
        <div className="data-panel">
          <Table responsive hover className="data-table">
            <thead>
              <tr>
                <th scope="col">EMAIL</th>
                <th scope="col">NAME</th>
                <th scope="col">STATUS</th>
                <th scope="col">REMOVE FROM TEAM</th>
              </tr>
            </thead>
            <tbody>
              {team.data.map((member) => (
                <tr key={member.EmailAddress}>
                  <td>{member.EmailAddress}</td>
                  <td>{`${member.FirstName} ${member.LastName}`.trim()}</td>
                  <td>{member.Status}</td>
                  <td>
                    <Button
                      variant="outline-danger"
                      size="sm"
                      aria-label={`REMOVE ${member.EmailAddress}`}
                      disabled={removeMember.isPending}
                      onClick={() => removeMember.mutate({ emailAddress: member.EmailAddress })}
                    >
                      {removingEmail === member.EmailAddress ? (
                        <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
                      ) : null}
                      REMOVE
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
    </>
  );
}
