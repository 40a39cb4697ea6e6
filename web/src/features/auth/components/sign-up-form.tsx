import { useCallback, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Overlay from 'react-bootstrap/Overlay';
import Popover from 'react-bootstrap/Popover';
import Spinner from 'react-bootstrap/Spinner';
import { captchaRequiredText } from '@cloudtrim/contracts/messages';
import { startSignupRequestSchema } from '@cloudtrim/contracts/signup';
import { paths } from '../../../config/paths';
import { useStartSignup } from '../api/start-signup';
import { getSignupError } from '../utils/get-signup-error';
import { CaptchaChallenge } from './captcha-challenge';

const signupEmailSchema = startSignupRequestSchema.pick({ emailaddress: true });

interface SignUpFormProps {
  /** Called once the confirmation email is on its way. */
  onSignedUp: () => void;
}

export function SignUpForm({ onSignedUp }: SignUpFormProps) {
  const [captchaAnswer, setCaptchaAnswer] = useState<string | null>(null);
  // A captcha answer is good for one attempt: a refused sign-up remounts the widget for a fresh one.
  const [captchaAttempt, setCaptchaAttempt] = useState(0);
  const [isCaptchaReminderShown, setIsCaptchaReminderShown] = useState(false);
  const captchaRef = useRef<HTMLDivElement>(null);
  const startSignup = useStartSignup({ onSuccess: onSignedUp });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(signupEmailSchema), defaultValues: { emailaddress: '' } });

  const onCaptchaAnswer = useCallback((answer: string | null) => {
    setCaptchaAnswer(answer);
    if (answer) setIsCaptchaReminderShown(false);
  }, []);

  const onSubmit = handleSubmit(
    ({ emailaddress }) => {
      if (!captchaAnswer) {
        setIsCaptchaReminderShown(true);
        return;
      }
      startSignup.mutate(
        { emailaddress, ReCaptchaResponse: captchaAnswer },
        {
          onError: () => {
            setCaptchaAnswer(null);
            setCaptchaAttempt((attempt) => attempt + 1);
          },
        },
      );
    },
    () => {
      if (!captchaAnswer) setIsCaptchaReminderShown(true);
    },
  );

  const signupError = startSignup.isError ? getSignupError(startSignup.error) : null;

  return (
    <Form noValidate onSubmit={onSubmit} aria-busy={startSignup.isPending}>
      {signupError ? (
        <Alert variant="danger" className="small" role="alert">
          {signupError.text}
          {signupError.hasAccountLinks ? (
            <span className="d-block mt-1">
              <Link to={paths.login}>Log In</Link> or <Link to={paths.recover}>recover your password</Link>.
            </span>
          ) : null}
        </Alert>
      ) : null}

      <Form.Group className="mb-3" controlId="sign-up-email">
        <Form.Label>Email</Form.Label>
        <Form.Control
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          autoFocus
          isInvalid={Boolean(errors.emailaddress)}
          {...register('emailaddress')}
        />
        <Form.Control.Feedback type="invalid">{errors.emailaddress?.message}</Form.Control.Feedback>
      </Form.Group>

      <p className="small text-body-secondary">
        By signing up you agree to the Cloudtrim Terms of Service and Privacy Policy. We use your email
        address only to run your account.
      </p>

      <div ref={captchaRef} className="mb-4">
        <CaptchaChallenge key={captchaAttempt} onAnswer={onCaptchaAnswer} />
      </div>
      <Overlay
        target={captchaRef}
        show={isCaptchaReminderShown}
        placement="top"
        rootClose
        onHide={() => setIsCaptchaReminderShown(false)}
      >
        <Popover id="captcha-reminder">
          <Popover.Body>{captchaRequiredText}</Popover.Body>
        </Popover>
      </Overlay>

      <Button type="submit" variant="primary" className="w-100" disabled={startSignup.isPending}>
        {startSignup.isPending ? (
          <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
        ) : null}
        SIGN UP
      </Button>
    </Form>
  );
}
