import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  accountDetailsSchema,
  updateAccountDetailsSchema,
  type AccountDetails,
  type UpdateAccountDetails,
} from '@cloudtrim/contracts/account';
import { requestJson } from '../../../lib/api-client';
import { storeName } from '../../../lib/session';
import { accountQueryKeys } from './get-account-details';

// PUT /api/v1/account/details answers the saved profile.
export function updateAccountDetails(details: UpdateAccountDetails): Promise<AccountDetails> {
  return requestJson('/api/v1/account/details', accountDetailsSchema, {
    method: 'PUT',
    body: updateAccountDetailsSchema.parse(details),
  });
}

interface UseUpdateAccountDetailsOptions {
  onSuccess?: () => void;
}

export function useUpdateAccountDetails({ onSuccess }: UseUpdateAccountDetailsOptions = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAccountDetails,
    onSuccess: (details) => {
      queryClient.setQueryData(accountQueryKeys.details(), details);
      // The top bar's 'Hi, ' reads the stored first name.
      storeName(details.FirstName);
      onSuccess?.();
    },
  });
}
