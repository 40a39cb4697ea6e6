import { Link, useLocation, useNavigate } from 'react-router';
import { nothingToSeeText, verifyErrorText, verifyLinkExpiredText } from '@cloudtrim/contracts/messages';
import { useSignupLink } from '../../features/auth/api/get-signup-link';
import { CompleteAccountForm } from '../../features/auth/components/complete-account-form';
import { getVerifyState, readVerifyToken } from '../../features/auth/utils/get-verify-state';
import { createLoginHref, paths } from '../../config/paths';
import { BackToLoginLink } from '../sign-in/back-to-login-link';
import { LoadingCard } from '../sign-in/loading-card';
import { SignInCard } from '../sign-in/sign-in-card';

export function VerifyRoute() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const token = readVerifyToken(search);
  const link = useSignupLink(token);
  const state = getVerifyState(token, link);

  function onCompleted() {
    void navigate(createLoginHref('sucomplete'), { replace: true });
  }

  switch (state) {
    case 'noQuery':
      return (
        <SignInCard title={nothingToSeeText}>
          <BackToLoginLink />
        </SignInCard>
      );
    case 'loading':
      return <LoadingCard title="Verify Your Email" />;
    case 'resendEmail':
      return (
        <SignInCard
          title="Verify Your Email"
          lead={<p className="centered-card-lead">{verifyLinkExpiredText}</p>}
        >
          <BackToLoginLink />
        </SignInCard>
      );
    case 'wrongAddress':
    case 'generalError':
      return (
        <SignInCard title="Verify Your Email" lead={<p className="centered-card-lead">{verifyErrorText}</p>}>
          <p className="mt-3 mb-0">
            <Link to={paths.signUp}>Start again at Sign Up</Link>
          </p>
          <BackToLoginLink />
        </SignInCard>
      );
    case 'passwordForm':
      return (
        <SignInCard
          title="Complete Your Account"
          lead={
            <p className="centered-card-lead mb-4">
              Your email address is confirmed. Choose a password and tell us about you and your company.
            </p>
          }
        >
          <CompleteAccountForm guid={token} email={link.data?.EmailAddress ?? ''} onCompleted={onCompleted} />
        </SignInCard>
      );
  }
}
