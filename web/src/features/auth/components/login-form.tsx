import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Spinner from 'react-bootstrap/Spinner';
import type { TokenRequest } from '@cloudtrim/contracts/auth';
import { forgotPasswordLinkText, signUpLinkText } from '@cloudtrim/contracts/messages';
import type { TokenRequestIssues } from '../api/create-token';
import { loadCreateToken, useLogIn } from '../api/use-log-in';

interface LoginFormProps {
  recoverHref: string;
  signUpHref: string;
  /** Called once the token is stored. */
  onLoggedIn: () => void;
}

function readRequest(form: HTMLFormElement): TokenRequest {
  const data = new FormData(form);
  return {
    emailAddress: String(data.get('emailAddress') ?? ''),
    password: String(data.get('password') ?? ''),
  };
}

// A plain form rather than react-hook-form: this is the public area's first screen, and the two
// fields need no more than the contract's check on submit and again on each change after it.
export function LoginForm({ recoverHref, signUpHref, onLoggedIn }: LoginFormProps) {
  const [isPasswordShown, setIsPasswordShown] = useState(false);
  const [issues, setIssues] = useState<TokenRequestIssues | null>(null);
  const logIn = useLogIn({ onSuccess: onLoggedIn });

  async function checkRequest(form: HTMLFormElement): Promise<{ request: TokenRequest; isValid: boolean }> {
    const request = readRequest(form);
    const { findTokenRequestIssues } = await loadCreateToken();
    const found = findTokenRequestIssues(request);
    setIssues(found);
    return { request, isValid: Object.keys(found).length === 0 };
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { request, isValid } = await checkRequest(event.currentTarget);
    if (isValid) logIn.mutate(request);
  }

  // Like react-hook-form's default: fields are checked again on every change once a submit has shown issues.
  function onChange(event: FormEvent<HTMLFormElement>) {
    if (issues) void checkRequest(event.currentTarget);
  }

  return (
    <Form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      onChange={onChange}
      onFocus={() => void loadCreateToken()}
      aria-busy={logIn.isPending}
    >
      {logIn.isError ? (
        <div className="alert alert-danger small" role="alert">
          {logIn.error.message}
        </div>
      ) : null}

      <Form.Group className="mb-3" controlId="login-email">
        <Form.Label>Email</Form.Label>
        <Form.Control
          type="email"
          name="emailAddress"
          autoComplete="username"
          inputMode="email"
          autoFocus
          isInvalid={Boolean(issues?.emailAddress)}
        />
        <Form.Control.Feedback type="invalid">
          {issues?.emailAddress?.code === 'too_small'
            ? 'Enter your email address.'
            : issues?.emailAddress?.message}
        </Form.Control.Feedback>
      </Form.Group>

      <Form.Group className="mb-2" controlId="login-password">
        <Form.Label>Password</Form.Label>
        <InputGroup hasValidation>
          <Form.Control
            type={isPasswordShown ? 'text' : 'password'}
            name="password"
            autoComplete="current-password"
            isInvalid={Boolean(issues?.password)}
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
            {issues?.password?.code === 'too_small' ? 'Enter your password.' : issues?.password?.message}
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
