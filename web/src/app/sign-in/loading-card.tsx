import Spinner from 'react-bootstrap/Spinner';
import { loadingText } from '@cloudtrim/contracts/messages';
import { SignInCard } from './sign-in-card';

/** The loading state of a sign-in screen that checks its link first (verify, reset password). */
export function LoadingCard({ title }: { title: string }) {
  return (
    <SignInCard title={title}>
      <div className="d-flex align-items-center gap-2 text-body-secondary" role="status">
        <Spinner animation="border" size="sm" aria-hidden="true" />
        {loadingText}
      </div>
    </SignInCard>
  );
}
