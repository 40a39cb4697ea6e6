import { inviteConflictText, inviteErrorText } from '@cloudtrim/contracts/messages';
import { ApiError } from '../../../lib/api-client';

/**
 * SPEC §8 'Invite': 409 names the address; any other failure gets the general sentence. null: a 401
 * ends the session instead of showing a message.
 */
export function getInviteErrorText(error: unknown, email: string): string | null {
  if (error instanceof ApiError && error.status === 401) return null;
  if (error instanceof ApiError && error.status === 409) return inviteConflictText(email);
  return inviteErrorText;
}
