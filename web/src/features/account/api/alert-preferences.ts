import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { alertPreferencesSchema, type AlertPreferences } from '@cloudtrim/contracts/alerts';
import { requestJson } from '../../../lib/api-client';
import { accountQueryKeys } from './get-account-details';

const alertPreferencesQueryKey = [...accountQueryKeys.all, 'alert-preferences'] as const;

// GET /api/v1/alert/preferences: whether the signed-in user is mailed budget and anomaly alerts.
export function getAlertPreferences({ signal }: { signal?: AbortSignal } = {}): Promise<AlertPreferences> {
  return requestJson('/api/v1/alert/preferences', alertPreferencesSchema, { signal });
}

export function getAlertPreferencesQueryOptions() {
  return queryOptions({
    queryKey: alertPreferencesQueryKey,
    queryFn: ({ signal }) => getAlertPreferences({ signal }),
  });
}

export function useAlertPreferences() {
  return useQuery(getAlertPreferencesQueryOptions());
}

// PUT /api/v1/alert/preferences answers the preferences saved.
export function updateAlertPreferences(preferences: AlertPreferences): Promise<AlertPreferences> {
  return requestJson('/api/v1/alert/preferences', alertPreferencesSchema, {
    method: 'PUT',
    body: alertPreferencesSchema.parse(preferences),
  });
}

export function useUpdateAlertPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAlertPreferences,
    onSuccess: (preferences) => queryClient.setQueryData(alertPreferencesQueryKey, preferences),
  });
}
