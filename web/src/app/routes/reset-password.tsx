import { BackToLoginLink } from '../sign-in/back-to-login-link';
import { SignInCard } from '../sign-in/sign-in-card';

export function ResetPasswordRoute() {
  return (
    <SignInCard
      title="Reset Password"
      lead={<p className="centered-card-lead">Choose a new password for your Cloudtrim account.</p>}
    >
      <BackToLoginLink />
    </SignInCard>
  );
}
