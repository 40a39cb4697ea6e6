import { Link, useNavigate, useSearchParams } from 'react-router';
import { nothingToSeeText, resetLinkInvalidText } from '@cloudtrim/contracts/messages';
import { useValidateResetCode } from '../../features/auth/api/validate-reset-code';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';
import { getResetState } from '../../features/auth/utils/get-reset-state';
import { createLoginHref, paths } from '../../config/paths';
import { BackToLoginLink } from '../sign-in/back-to-login-link';
import { LoadingCard } from '../sign-in/loading-card';
import { SignInCard } from '../sign-in/sign-in-card';

export function ResetPasswordRoute() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const email = searchParams.get('email')?.trim() ?? '';
  const code = searchParams.get('code')?.trim() ?? '';
  const codeCheck = useValidateResetCode({ email, code });
  const state = getResetState(email, code, codeCheck);

  function onReset() {
    void navigate(createLoginHref('pucomplete'), { replace: true });
  }

  switch (state.kind) {
    case 'noQuery':
      return (
        <SignInCard title={nothingToSeeText}>
          <BackToLoginLink />
        </SignInCard>
      );
    case 'loading':
      return <LoadingCard title="Reset Password" />;
    case 'invalid':
      return (
        <SignInCard
          title="Reset Password"
          lead={<p className="centered-card-lead">{state.reason ?? resetLinkInvalidText}</p>}
        >
          <p className="mt-3 mb-0">
            <Link to={paths.recover}>Request a new password reset link</Link>
          </p>
          <BackToLoginLink />
        </SignInCard>
      );
    case 'passwordForm':
      return (
        <SignInCard
          title="Reset Password"
          lead={<p className="centered-card-lead mb-4">Choose a new password for {email}.</p>}
        >
          <ResetPasswordForm email={email} code={code} onReset={onReset} />
          <BackToLoginLink />
        </SignInCard>
      );
  }
}
