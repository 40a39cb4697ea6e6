import {
  genericErrorText,
  recoverInvalidEmailText,
  recoverNoAccountText,
  recoverServerErrorText,
  recoverTooManyRequestsText,
} from '@cloudtrim/contracts/messages';
import { ApiError } from '../../../lib/api-client';

export interface RecoverError {
  text: string;
  variant: 'danger' | 'warning';
  /** 404 offers to sign up instead. */
  hasSignUpLink: boolean;
}

/** SPEC §8 'Recover'. */
export function getRecoverError(error: unknown): RecoverError {
  const status = error instanceof ApiError ? error.status : null;
  switch (status) {
    case 400:
      return { text: recoverInvalidEmailText, variant: 'danger', hasSignUpLink: false };
    case 404:
      return { text: recoverNoAccountText, variant: 'warning', hasSignUpLink: true };
    case 429:
      return { text: recoverTooManyRequestsText, variant: 'warning', hasSignUpLink: false };
    case 500:
      return { text: recoverServerErrorText, variant: 'danger', hasSignUpLink: false };
    default:
      return { text: genericErrorText, variant: 'danger', hasSignUpLink: false };
  }
}
