import { useEffect, useState } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import { genericErrorText } from '@cloudtrim/contracts/messages';
import { env } from '../../../config/env';

interface AltchaCaptchaProps {
  /** The solution to send as ReCaptchaResponse once the box is ticked and solved; null until then. */
  onAnswer: (answer: string | null) => void;
}

const altchaTagName = 'altcha-widget';

function isAltchaDefined(): boolean {
  return customElements.get(altchaTagName) !== undefined;
}

/**
 * ALTCHA's self-hosted proof of work. It is solved when the user ticks its box (auto="off"), so the form
 * can still ask for the box to be checked (SPEC §5). The widget's code is loaded only on this screen.
 */
export function AltchaCaptcha({ onAnswer }: AltchaCaptchaProps) {
  const [isLoaded, setIsLoaded] = useState(isAltchaDefined);
  const [hasLoadFailed, setHasLoadFailed] = useState(false);

  useEffect(() => {
    if (isLoaded) return;
    let isCurrent = true;
    import('altcha')
      .then(() => {
        if (isCurrent) setIsLoaded(true);
      })
      .catch((error: unknown) => {
        console.error('Loading the captcha failed', error);
        if (isCurrent) setHasLoadFailed(true);
      });
    return () => {
      isCurrent = false;
    };
  }, [isLoaded]);

  // React 19 attaches `on…` props of a custom element as listeners of that event, at commit.
  function onStateChange(event: CustomEvent) {
    const { state, payload } = (event as AltchaStateChangeEvent).detail;
    onAnswer(state === 'verified' && payload ? payload : null);
  }

  if (hasLoadFailed) return <p className="text-danger small mb-0">{genericErrorText}</p>;
  if (!isLoaded)
    return <Spinner animation="border" size="sm" role="status" aria-label="Loading the captcha" />;
  // No logo: ALTCHA's is a link inside an aria-hidden element, focusable yet hidden from screen
  // readers (axe: aria-hidden-focus).
  return (
    <altcha-widget
      onstatechange={onStateChange}
      challengeurl={`${env.apiBaseUrl}/api/v1/captcha/challenge`}
      auto="off"
      hidelogo
    />
  );
}
