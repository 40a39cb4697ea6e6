import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import { loginFailedText, tokenRequestSchema } from '@cloudtrim/contracts/auth';
import { forgotPasswordLinkText, signUpLinkText } from '@cloudtrim/contracts/messages';
import { useLogIn } from '../api/create-token';

interface LoginFormProps {
  recoverHref: string;
  signUpHref: string;
  /** Called once the token is stored. */
  onLoggedIn: () => void;
}

export function LoginForm({ recoverHref, signUpHref, onLoggedIn }: LoginFormProps) {
  const [isPasswordShown, setIsPasswordShown] = useState(false);
  const logIn = useLogIn({ onSuccess: onLoggedIn });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(tokenRequestSchema),
    defaultValues: { emailAddress: '', password: '' },
  });

  const onSubmit = handleSubmit((request) => logIn.mutate(request));

  return (
    <Form noValidate onSubmit={onSubmit} aria-busy={logIn.isPending}>
      {logIn.isError ? (
        <Alert variant="danger" className="small" role="alert">
          {loginFailedText}
        </Alert>
      ) : null}

      <Form.Group className="mb-3" controlId="login-email">
        <Form.Label>Email</Form.Label>
        <Form.Control
          type="email"
          autoComplete="username"
          inputMode="email"
          autoFocus
          isInvalid={Boolean(errors.emailAddress)}
          {...register('emailAddress')}
        />
        <Form.Control.Feedback type="invalid">
          {errors.emailAddress?.type === 'too_small'
            ? 'Enter your email address.'
            : errors.emailAddress?.message}
        </Form.Control.Feedback>
      </Form.Group>

      <Form.Group className="mb-2" controlId="login-password">
        <Form.Label>Password</Form.Label>
        <InputGroup hasValidation>
          <Form.Control
            type={isPasswordShown ? 'text' : 'password'}
            autoComplete="current-password"
            isInvalid={Boolean(errors.password)}
            {...register('password')}
          />
          <Button
            variant="outline-secondary"
            className="password-toggle"
            aria-controls="login-password"
            onClick={() => setIsPasswordShown((isShown) => !isShown)}
          >
            {isPasswordShown ? 'Hide' : 'Show'}
          </Button>
          <Form.Control.Feedback type="invalid">
            {errors.password?.type === 'too_small' ? 'Enter your password.' : errors.password?.message}
          </Form.Control.Feedback>
        </InputGroup>
      </Form.Group>

      <div className="mb-4 text-end">
        <Link to={recoverHref} className="small">
          {forgotPasswordLinkText}
        </Link>
      </div>

      <Button type="submit" variant="primary" className="w-100" disabled={logIn.isPending}>
        {logIn.isPending ? (
          <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
        ) : null}
        LOG IN
      </Button>

      <p className="mt-4 mb-0 text-center small text-body-secondary">
        New to Cloudtrim? <Link to={signUpHref}>{signUpLinkText}</Link>
      </p>
    </Form>
  );
}
