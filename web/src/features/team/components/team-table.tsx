import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import { loadingText, noTeamMembersText } from '@cloudtrim/contracts/messages';
import { teamRoles, type TeamMember, type TeamRole } from '@cloudtrim/contracts/team';
import { describeLoadError } from '../../../lib/load-failure';
import { useMyRole } from '../../../lib/my-role';
import { useRemoveTeamMember } from '../api/remove-team-member';
import { useSetTeamRole } from '../api/set-team-role';
import { useTeam } from '../api/get-team';
import '../../../components/data-views.css';

interface RoleCellProps {
  member: TeamMember;
  isOwner: boolean;
  isBusy: boolean;
  onChange: (role: TeamRole) => void;
}

/** A member's role: a menu for an Owner (of an active member), the word for everyone else. */
function RoleCell({ member, isOwner, onChange, isBusy }: RoleCellProps) {
  if (!isOwner || member.Status !== 'Active') return <>{member.role}</>;
  return (
    <Form.Select
      size="sm"
      value={member.role}
      disabled={isBusy}
      aria-label={`Role of ${member.EmailAddress}`}
      onChange={(event) => onChange(event.target.value as TeamRole)}
    >
      {teamRoles.map((role) => (
        <option key={role} value={role}>
          {role}
        </option>
      ))}
    </Form.Select>
  );
}

/**
 * 'Your Team': every member and pending invitation with their role (a menu for an Owner), each with a
 * REMOVE button (none for a Viewer, who reads only).
 */
export function TeamTable() {
  const team = useTeam();
  const myRole = useMyRole();
  const removeMember = useRemoveTeamMember();
  const setRole = useSetTeamRole();
  const removingEmail = removeMember.isPending ? removeMember.variables.emailAddress : null;
  const isReadOnly = myRole === 'Viewer';

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
      {setRole.isError ? (
        <Alert variant="danger" dismissible onClose={() => setRole.reset()}>
          {setRole.error.message}
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
                <th scope="col">ROLE</th>
                {isReadOnly ? null : <th scope="col">REMOVE FROM TEAM</th>}
              </tr>
            </thead>
            <tbody>
              {team.data.map((member) => (
                <tr key={member.EmailAddress}>
                  <td>{member.EmailAddress}</td>
                  <td>{`${member.FirstName} ${member.LastName}`.trim()}</td>
                  <td>{member.Status}</td>
                  <td>
                    <RoleCell
                      member={member}
                      isOwner={myRole === 'Owner'}
                      isBusy={setRole.isPending}
                      onChange={(role) => setRole.mutate({ emailAddress: member.EmailAddress, role })}
                    />
                  </td>
                  {isReadOnly ? null : (
                    <td>
                      <Button
                        variant="outline-danger"
                        size="sm"
                        aria-label={`REMOVE ${member.EmailAddress}`}
                        disabled={removeMember.isPending}
                        onClick={() => removeMember.mutate({ emailAddress: member.EmailAddress })}
                      >
                        {removingEmail === member.EmailAddress ? (
                          <Spinner
                            as="span"
                            animation="border"
                            size="sm"
                            className="me-2"
                            aria-hidden="true"
                          />
                        ) : null}
                        REMOVE
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
    </>
  );
}
