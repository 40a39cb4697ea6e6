import {
  networkErrorText,
  resetAccountNotFoundText,
  resetAlreadyCompletedText,
  resetInvalidCodeText,
  resetInvalidRequestText,
  resetOtherErrorText,
  resetPasswordRequirementsText,
  resetServerErrorText,
  resetTooManyAttemptsText,
} from '@cloudtrim/contracts/messages';
import { ApiError } from '../../../lib/api-client';

const textsByStatus: Record<number, string> = {
  400: resetInvalidRequestText,
  401: resetInvalidCodeText,
  404: resetAccountNotFoundText,
  409: resetAlreadyCompletedText,
  422: resetPasswordRequirementsText,
  429: resetTooManyAttemptsText,
  500: resetServerErrorText,
};

/** SPEC §8 'Reset with code'. */
export function getResetErrorText(error: unknown): string {
  if (!(error instanceof ApiError) || error.status === null) return networkErrorText;
  return textsByStatus[error.status] ?? resetOtherErrorText(error.status, error.statusText, error.message);
}
