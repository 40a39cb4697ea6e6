import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { signUpLinkText } from '@cloudtrim/contracts/messages';
import { requestPasswordResetRequestSchema } from '@cloudtrim/contracts/password-reset';
import { paths } from '../../../config/paths';
import { useRequestPasswordReset } from '../api/request-password-reset';
import { getRecoverError } from '../utils/get-recover-error';

interface RecoverFormProps {
  /** Called once the request is accepted (SPEC: the same answer whether or not the address has an account). */
  onRequested: () => void;
}

export function RecoverForm({ onRequested }: RecoverFormProps) {
  const requestReset = useRequestPasswordReset({ onSuccess: onRequested });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(requestPasswordResetRequestSchema),
    defaultValues: { EmailAddress: '' },
  });

  const onSubmit = handleSubmit((request) => requestReset.mutate(request));
  const recoverError = requestReset.isError ? getRecoverError(requestReset.error) : null;

  return (
    <Form noValidate onSubmit={onSubmit} aria-busy={requestReset.isPending}>
      {recoverError ? (
        <Alert variant={recoverError.variant} className="small" role="alert">
          {recoverError.text}
          {recoverError.hasSignUpLink ? (
            <span className="d-block mt-1">
              <Link to={paths.signUp}>{signUpLinkText}</Link>
            </span>
          ) : null}
        </Alert>
      ) : null}

      <Form.Group className="mb-4" controlId="recover-email">
        <Form.Label>Email</Form.Label>
        <Form.Control
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          autoFocus
          isInvalid={Boolean(errors.EmailAddress)}
          {...register('EmailAddress')}
        />
        <Form.Control.Feedback type="invalid">{errors.EmailAddress?.message}</Form.Control.Feedback>
      </Form.Group>

      <Button type="submit" variant="primary" className="w-100" disabled={requestReset.isPending}>
        {requestReset.isPending ? (
          <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
        ) : null}
        SEND RESET LINK
      </Button>
    </Form>
  );
}
