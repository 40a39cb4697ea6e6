import { useMutation } from '@tanstack/react-query';
import { requestVoid } from '../../../lib/api-client';

// DELETE /api/v1/token/all ends every session of the user, this one included.
export function deleteAllTokens(): Promise<void> {
  return requestVoid('/api/v1/token/all', { method: 'DELETE', canExpireSession: false });
}

export function useDeleteAllTokens() {
  return useMutation({ mutationFn: deleteAllTokens });
}
