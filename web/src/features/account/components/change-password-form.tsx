import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { changePasswordErrorText, logOutAllDevicesText } from '@cloudtrim/contracts/messages';
import { changePasswordRequestSchema } from '@cloudtrim/contracts/password-reset';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { ApiError } from '../../../lib/api-client';
import { canSubmitNewPassword } from '../../../lib/new-password';
import { useChangePassword } from '../api/change-password';

const changePasswordFormSchema = changePasswordRequestSchema.extend({ confirmation: z.string() });

interface ChangePasswordFormProps {
  /** Called once the password is changed; the caller ends the session on this device. */
  onChanged: () => Promise<void>;
  onCancel: () => void;
}

// A refused request (wrong current password, too many attempts) says why under SPEC's sentence.
function getRefusalReason(error: unknown): string | undefined {
  if (error instanceof ApiError && error.status !== null && error.status >= 400 && error.status < 500) {
    return error.message;
  }
  return undefined;
}

/** SPEC §5 'Change password': current, new and confirmation required, with the live checklist. */
export function ChangePasswordForm({ onChanged, onCancel }: ChangePasswordFormProps) {
  const changePassword = useChangePassword();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { OldPassword: '', NewPassword: '', confirmation: '', LogOutAllDevices: false },
  });
  const [newPassword, confirmation] = useWatch({ control, name: ['NewPassword', 'confirmation'] });
  const isBusy = changePassword.isPending || changePassword.isSuccess;
  const canSubmit = canSubmitNewPassword(newPassword, confirmation) && !isBusy;

  const onSubmit = handleSubmit(({ confirmation: _confirmation, ...request }) => {
    changePassword.mutate(request, { onSuccess: () => onChanged() });
  });

  const refusalReason = changePassword.isError ? getRefusalReason(changePassword.error) : undefined;

  return (
    <Form noValidate onSubmit={onSubmit} aria-busy={isBusy}>
      {changePassword.isError ? (
        <Alert variant="danger" className="small" role="alert">
          {changePasswordErrorText}
          {refusalReason ? <span className="d-block mt-1">{refusalReason}</span> : null}
        </Alert>
      ) : null}

      <Form.Group className="mb-3" controlId="change-current-password">
        <Form.Label>Current Password</Form.Label>
        <Form.Control
          type="password"
          autoComplete="current-password"
          required
          autoFocus
          isInvalid={Boolean(errors.OldPassword)}
          {...register('OldPassword')}
        />
        <Form.Control.Feedback type="invalid">{errors.OldPassword?.message}</Form.Control.Feedback>
      </Form.Group>

      <NewPasswordFields
        idPrefix="change"
        passwordLabel="New Password"
        confirmationLabel="Confirm New Password"
        password={newPassword}
        confirmation={confirmation}
        passwordField={register('NewPassword')}
        confirmationField={register('confirmation')}
      />

      <Form.Check
        className="mb-4"
        type="checkbox"
        id="change-log-out-all-devices"
        label={logOutAllDevicesText}
        {...register('LogOutAllDevices')}
      />

      <div className="d-flex gap-2">
        <Button type="submit" variant="primary" disabled={!canSubmit}>
          {isBusy ? (
            <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          ) : null}
          UPDATE PASSWORD
        </Button>
        <Button type="button" variant="outline-secondary" onClick={onCancel} disabled={isBusy}>
          CANCEL
        </Button>
      </div>
    </Form>
  );
}
