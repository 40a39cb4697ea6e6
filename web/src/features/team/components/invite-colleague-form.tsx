import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import { addColleagueErrorText, colleagueEmailLabel, inviteSuccessText } from '@cloudtrim/contracts/messages';
import { inviteColleagueQuerySchema } from '@cloudtrim/contracts/team';
import { useIsReadOnly } from '../../../lib/my-role';
import { useInviteColleague } from '../api/invite-colleague';
import { getInviteErrorText } from '../utils/get-invite-error-text';

/** SPEC §4 'Team invite': idle, sending, then a success or error banner that editing the field clears. */
export function InviteColleagueForm() {
  const invite = useInviteColleague();
  // A Viewer reads only: the server would refuse the invitation.
  const isReadOnly = useIsReadOnly();
  const {
    register,
    handleSubmit,
    resetField,
    formState: { errors },
  } = useForm({ resolver: zodResolver(inviteColleagueQuerySchema), defaultValues: { emailAddress: '' } });

  const onSubmit = handleSubmit((query) => {
    invite.mutate(query, {
      onSuccess: () => resetField('emailAddress'),
      onError: (error) => console.error(addColleagueErrorText, error),
    });
  });

  const inviteErrorText = invite.isError
    ? getInviteErrorText(invite.error, invite.variables.emailAddress)
    : null;

  return (
    <Form
      noValidate
      onSubmit={onSubmit}
      aria-busy={invite.isPending}
      className="mb-5"
      style={{ maxWidth: '36rem' }}
    >
      {invite.isSuccess ? (
        <Alert variant="success" role="status">
          {inviteSuccessText}
        </Alert>
      ) : null}
      {inviteErrorText ? (
        <Alert variant="danger" role="alert">
          {inviteErrorText}
        </Alert>
      ) : null}

      <Form.Group controlId="colleague-email">
        <Form.Label>{colleagueEmailLabel}</Form.Label>
        <InputGroup hasValidation>
          <Form.Control
            type="email"
            inputMode="email"
            autoComplete="off"
            required
            isInvalid={Boolean(errors.emailAddress)}
            {...register('emailAddress', {
              onChange: () => {
                if (!invite.isIdle && !invite.isPending) invite.reset();
              },
            })}
          />
          <Button type="submit" variant="primary" disabled={invite.isPending || isReadOnly}>
            {invite.isPending ? (
              <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
            ) : null}
            INVITE
          </Button>
          <Form.Control.Feedback type="invalid">{errors.emailAddress?.message}</Form.Control.Feedback>
        </InputGroup>
      </Form.Group>
    </Form>
  );
}
