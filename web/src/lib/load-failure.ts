import { isNetworkFailureMessage, loadErrorText } from '@cloudtrim/contracts/messages';
import { ApiError } from './api-client';

/**
 * SPEC §8: a list that fails to load hides its results, except when the network itself failed, which
 * shows the list's empty state. A fetch that never got an answer has no status.
 */
export function isNetworkFailure(error: unknown): boolean {
  if (error instanceof ApiError && error.status === null) return true;
  return error instanceof Error && isNetworkFailureMessage(error.message);
}

/** SPEC §8: a list that cannot load shows 'Error: ' plus the status text (or the message). */
export function describeLoadError(error: Error): string {
  return loadErrorText(error instanceof ApiError ? error.statusText || error.message : error.message);
}
