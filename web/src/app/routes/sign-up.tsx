import { useState } from 'react';
import { signupSuccessText, thankYouText } from '@cloudtrim/contracts/messages';
import { SignUpForm } from '../../features/auth/components/sign-up-form';
import { BackToLoginLink } from '../sign-in/back-to-login-link';
import { SignInCard } from '../sign-in/sign-in-card';

export function SignUpRoute() {
  const [isSignedUp, setIsSignedUp] = useState(false);

  if (isSignedUp) {
    return (
      <SignInCard title={thankYouText} lead={<p className="centered-card-lead">{signupSuccessText}</p>}>
        <BackToLoginLink />
      </SignInCard>
    );
  }

  return (
    <SignInCard
      title="Sign Up"
      lead={
        <p className="centered-card-lead mb-4">
          Create your Cloudtrim account to connect your Azure tenants and start saving.
        </p>
      }
    >
      <SignUpForm onSignedUp={() => setIsSignedUp(true)} />
      <BackToLoginLink />
    </SignInCard>
  );
}
