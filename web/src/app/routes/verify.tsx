import { BackToLoginLink } from '../sign-in/back-to-login-link';
import { SignInCard } from '../sign-in/sign-in-card';

export function VerifyRoute() {
  return (
    <SignInCard
      title="Verify Your Email"
      lead={
        <p className="centered-card-lead">Confirm your email address and complete your Cloudtrim account.</p>
      }
    >
      <BackToLoginLink />
    </SignInCard>
  );
}
