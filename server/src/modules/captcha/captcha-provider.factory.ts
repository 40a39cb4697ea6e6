// Picks the captcha provider the configuration names. Apart from the interface the providers
// implement (captcha.provider.ts), so the providers and the interface do not import each other.
import type { CaptchaConfig } from '../../config';
import { AltchaProvider, deriveAltchaKey } from './altcha.provider';
import type { CaptchaProvider } from './captcha.provider';
import { RecaptchaProvider } from './recaptcha.provider';

export function createCaptchaProvider(config: CaptchaConfig, jwtSecret: string): CaptchaProvider {
  if (config.provider === 'recaptcha') {
    return new RecaptchaProvider(
      config.recaptchaSiteKey!,
      config.recaptchaSecret!,
      config.recaptchaVerifyUrl,
    );
  }
  return new AltchaProvider(deriveAltchaKey(jwtSecret), config.altchaMaxNumber);
}
