import { useMutation } from '@tanstack/react-query';
import type { TokenRequest } from '@cloudtrim/contracts/auth';
import type { StoredSession } from '../../../lib/session';

// The login screen is the public area's first load (SPEC's budget: 110 KB gzip), which carries no
// zod: the call's module, with the contract's schemas, is a chunk of its own, fetched as soon as the
// form takes focus and awaited on submit.
export const loadCreateToken = () => import('./create-token');

interface UseLogInOptions {
  onSuccess?: (session: StoredSession) => void;
}

export function useLogIn({ onSuccess }: UseLogInOptions = {}) {
  return useMutation({
    mutationFn: async (request: TokenRequest) => (await loadCreateToken()).logIn(request),
    onSuccess,
  });
}
