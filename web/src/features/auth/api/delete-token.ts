import { useMutation } from '@tanstack/react-query';
import { requestVoid } from '../../../lib/api-client';

// DELETE /api/v1/token ends this session on the server. A 401 means it has already ended, which is
// what a log-out wants, so it does not trigger the session-expiry handling.
export function deleteToken(): Promise<void> {
  return requestVoid('/api/v1/token', { method: 'DELETE', canExpireSession: false });
}

export function useDeleteToken() {
  return useMutation({ mutationFn: deleteToken });
}
