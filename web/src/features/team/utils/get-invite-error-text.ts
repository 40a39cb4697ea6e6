import { inviteConflictText, inviteErrorText } from '@cloudtrim/contracts/messages';
import { ApiError } from '../../../lib/api-client';

/** SPEC §8 'Invite': 409 names the address; any other failure gets the general sentence. */
export function getInviteErrorText(error: unknown, email: string): string {
  if (error instanceof ApiError && error.status === 409) return inviteConflictText(email);
  return inviteErrorText;
}
