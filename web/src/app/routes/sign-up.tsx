import { BackToLoginLink } from '../sign-in/back-to-login-link';
import { SignInCard } from '../sign-in/sign-in-card';

export function SignUpRoute() {
  return (
    <SignInCard
      title="Sign Up"
      lead={
        <p className="centered-card-lead">
          Create your Cloudtrim account to connect your Azure tenants and start saving.
        </p>
      }
    >
      <BackToLoginLink />
    </SignInCard>
  );
}
