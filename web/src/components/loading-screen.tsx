import Spinner from 'react-bootstrap/Spinner';
import { loadingText } from '@cloudtrim/contracts/messages';

export function LoadingScreen() {
  return (
    <div className="loading-screen" role="status" aria-live="polite">
      <Spinner animation="border" variant="primary" aria-hidden="true" />
      <span className="loading-screen-text">{loadingText}</span>
    </div>
  );
}
