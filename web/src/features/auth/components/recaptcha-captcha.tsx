import { useEffect, useRef, useState } from 'react';
import { genericErrorText } from '@cloudtrim/contracts/messages';

interface RecaptchaCaptchaProps {
  siteKey: string;
  onAnswer: (answer: string | null) => void;
}

interface RecaptchaApi {
  render: (
    container: HTMLElement,
    parameters: { sitekey: string; callback: (answer: string) => void; 'expired-callback': () => void },
  ) => number;
}

type RecaptchaWindow = Window & { grecaptcha?: RecaptchaApi; onCloudtrimRecaptchaLoad?: () => void };

const scriptUrl = 'https://www.google.com/recaptcha/api.js?onload=onCloudtrimRecaptchaLoad&render=explicit';
let recaptchaLoad: Promise<RecaptchaApi> | undefined;

// Google's script is loaded once per page, when the first sign-up form asks for it.
function loadRecaptcha(): Promise<RecaptchaApi> {
  recaptchaLoad ??= new Promise<RecaptchaApi>((resolve, reject) => {
    const recaptchaWindow = window as RecaptchaWindow;
    recaptchaWindow.onCloudtrimRecaptchaLoad = () => {
      if (recaptchaWindow.grecaptcha) resolve(recaptchaWindow.grecaptcha);
      else reject(new Error('reCAPTCHA loaded without its API'));
    };
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.async = true;
    script.onerror = () => {
      recaptchaLoad = undefined;
      reject(new Error('reCAPTCHA could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return recaptchaLoad;
}

/** Google reCAPTCHA v2's checkbox, when the server is configured for it. */
export function RecaptchaCaptcha({ siteKey, onAnswer }: RecaptchaCaptchaProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [hasLoadFailed, setHasLoadFailed] = useState(false);

  useEffect(() => {
    let isCurrent = true;
    loadRecaptcha()
      .then((recaptcha) => {
        const container = containerRef.current;
        if (!isCurrent || !container) return;
        // render() refuses a container used before, so each mount gets a fresh one.
        const widgetContainer = document.createElement('div');
        container.replaceChildren(widgetContainer);
        recaptcha.render(widgetContainer, {
          sitekey: siteKey,
          callback: (answer) => onAnswer(answer),
          'expired-callback': () => onAnswer(null),
        });
      })
      .catch((error: unknown) => {
        console.error('Loading the captcha failed', error);
        if (isCurrent) setHasLoadFailed(true);
      });
    return () => {
      isCurrent = false;
    };
  }, [siteKey, onAnswer]);

  if (hasLoadFailed) return <p className="text-danger small mb-0">{genericErrorText}</p>;
  return <div ref={containerRef} />;
}
