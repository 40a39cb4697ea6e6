import { BackToLoginLink } from '../sign-in/back-to-login-link';
import { SignInCard } from '../sign-in/sign-in-card';

export function RecoverRoute() {
  return (
    <SignInCard
      title="Recover Password"
      lead={
        <p className="centered-card-lead">Request a link to reset the password of your Cloudtrim account.</p>
      }
    >
      <BackToLoginLink />
    </SignInCard>
  );
}
