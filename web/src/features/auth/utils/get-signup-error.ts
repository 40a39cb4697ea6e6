import {
  genericErrorText,
  signupEmailInUseText,
  signupTooManyRequestsText,
  signupTooSoonText,
} from '@cloudtrim/contracts/messages';
import { ApiError } from '../../../lib/api-client';

export interface SignupError {
  text: string;
  /** 409: the address has an account, so the banner offers to log in or recover the password. */
  hasAccountLinks: boolean;
}

/** SPEC §8 'Sign-up email step'. */
export function getSignupError(error: unknown): SignupError {
  const status = error instanceof ApiError ? error.status : null;
  switch (status) {
    case 409:
      return { text: signupEmailInUseText, hasAccountLinks: true };
    case 425:
      return { text: signupTooSoonText, hasAccountLinks: false };
    case 403:
      return { text: signupTooManyRequestsText, hasAccountLinks: false };
    default:
      return { text: genericErrorText, hasAccountLinks: false };
  }
}
