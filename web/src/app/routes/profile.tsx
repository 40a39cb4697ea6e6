import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Profile } from '../../features/account/components/profile';
import { useDeleteToken } from '../../features/auth/api/delete-token';
import { clearSession } from '../../lib/session';
import { createLoginHref } from '../../config/paths';

/**
 * After a password change this device logs in again with the new password (SPEC §7): its session is
 * ended on the server too, then cleared here. 'Log out of all devices' has already ended the others.
 */
export function ProfileRoute() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { mutateAsync: deleteToken } = useDeleteToken();

  async function onPasswordChanged() {
    try {
      await deleteToken();
    } catch (error) {
      console.error('Ending the session on the server failed', error);
    }
    clearSession();
    queryClient.clear();
    // Synchronous, so the top bar's name poll never sees the cleared session and sends to plain /login.
    await navigate(createLoginHref('pucomplete'), { replace: true, flushSync: true });
  }

  return <Profile onPasswordChanged={onPasswordChanged} />;
}
