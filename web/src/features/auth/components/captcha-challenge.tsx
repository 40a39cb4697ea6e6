import Spinner from 'react-bootstrap/Spinner';
import { genericErrorText } from '@cloudtrim/contracts/messages';
import { useCaptchaConfig } from '../api/get-captcha-config';
import { AltchaCaptcha } from './altcha-captcha';
import { RecaptchaCaptcha } from './recaptcha-captcha';

interface CaptchaChallengeProps {
  onAnswer: (answer: string | null) => void;
}

/** The sign-up captcha, ALTCHA or reCAPTCHA as the server's configuration says. */
export function CaptchaChallenge({ onAnswer }: CaptchaChallengeProps) {
  const config = useCaptchaConfig();
  if (config.isPending) {
    return <Spinner animation="border" size="sm" role="status" aria-label="Loading the captcha" />;
  }
  if (config.isError) return <p className="text-danger small mb-0">{genericErrorText}</p>;
  if (config.data.provider === 'recaptcha' && config.data.siteKey) {
    return <RecaptchaCaptcha siteKey={config.data.siteKey} onAnswer={onAnswer} />;
  }
  return <AltchaCaptcha onAnswer={onAnswer} />;
}
