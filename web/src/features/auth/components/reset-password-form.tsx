import { useForm, useWatch } from 'react-hook-form';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { NewPasswordFields } from '../../../components/new-password-fields';
import { canSubmitNewPassword } from '../../../lib/new-password';
import { useResetPasswordWithCode } from '../api/reset-password-with-code';
import { getResetErrorText } from '../utils/get-reset-error-text';

interface ResetPasswordFormProps {
  email: string;
  code: string;
  /** Called once the new password is set. */
  onReset: () => void;
}

export function ResetPasswordForm({ email, code, onReset }: ResetPasswordFormProps) {
  const resetPassword = useResetPasswordWithCode({ onSuccess: onReset });
  const { register, handleSubmit, control } = useForm({
    defaultValues: { password: '', confirmation: '' },
  });
  const [password, confirmation] = useWatch({ control, name: ['password', 'confirmation'] });
  const canSubmit = canSubmitNewPassword(password, confirmation) && !resetPassword.isPending;

  const onSubmit = handleSubmit((values) => {
    if (!canSubmitNewPassword(values.password, values.confirmation)) return;
    resetPassword.mutate({ Code: code, EmailAddress: email, NewPassword: values.password });
  });

  return (
    <Form noValidate onSubmit={onSubmit} aria-busy={resetPassword.isPending}>
      {resetPassword.isError ? (
        <Alert variant="danger" className="small" role="alert">
          {getResetErrorText(resetPassword.error)}
        </Alert>
      ) : null}

      <NewPasswordFields
        idPrefix="reset"
        passwordLabel="New Password"
        confirmationLabel="Confirm New Password"
        password={password}
        confirmation={confirmation}
        passwordField={register('password')}
        confirmationField={register('confirmation')}
      />

      <Button type="submit" variant="primary" className="w-100 mt-2" disabled={!canSubmit}>
        {resetPassword.isPending ? (
          <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
        ) : null}
        RESET PASSWORD
      </Button>
    </Form>
  );
}
