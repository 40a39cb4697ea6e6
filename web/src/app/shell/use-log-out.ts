import { useCallback, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useDeleteAllTokens } from '../../features/auth/api/delete-all-tokens';
import { useDeleteToken } from '../../features/auth/api/delete-token';
import { endSessionHere, readToken } from '../../lib/session';
import { paths } from '../../config/paths';

/**
 * Log-out ends the session on the server, then always clears it locally and goes to /login (or the
 * destination given): a failed call must never leave the user signed in on this device.
 */
export function useLogOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { mutateAsync: deleteToken } = useDeleteToken();
  const { mutateAsync: deleteAllTokens } = useDeleteAllTokens();
  const isLoggingOutRef = useRef(false);

  const endSession = useCallback(
    async (revokeOnServer: () => Promise<void>, destination: string) => {
      if (isLoggingOutRef.current) return;
      isLoggingOutRef.current = true;
      try {
        if (readToken()) await revokeOnServer();
      } catch (error) {
        console.error('Ending the session on the server failed', error);
      } finally {
        endSessionHere();
        queryClient.clear();
        try {
          await navigate(destination, { replace: true, flushSync: true });
        } finally {
          isLoggingOutRef.current = false;
        }
      }
    },
    [navigate, queryClient],
  );

  const logOutTo = useCallback(
    (destination: string) => endSession(() => deleteToken(), destination),
    [endSession, deleteToken],
  );
  const logOut = useCallback(() => logOutTo(paths.login), [logOutTo]);
  const logOutAllDevices = useCallback(
    () => endSession(() => deleteAllTokens(), paths.login),
    [endSession, deleteAllTokens],
  );

  return { logOut, logOutTo, logOutAllDevices };
}
