import { useState } from 'react';
import { recoverSuccessText, thankYouText } from '@cloudtrim/contracts/messages';
import { RecoverForm } from '../../features/auth/components/recover-form';
import { BackToLoginLink } from '../sign-in/back-to-login-link';
import { SignInCard } from '../sign-in/sign-in-card';

export function RecoverRoute() {
  const [isRequested, setIsRequested] = useState(false);

  if (isRequested) {
    return (
      <SignInCard title={thankYouText} lead={<p className="centered-card-lead">{recoverSuccessText}</p>}>
        <BackToLoginLink />
      </SignInCard>
    );
  }

  return (
    <SignInCard
      title="Recover Password"
      lead={
        <p className="centered-card-lead mb-4">
          Enter the email address of your account and we will send you a link to reset your password.
        </p>
      }
    >
      <RecoverForm onRequested={() => setIsRequested(true)} />
      <BackToLoginLink />
    </SignInCard>
  );
}
