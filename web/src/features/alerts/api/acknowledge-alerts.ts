import { useMutation, useQueryClient } from '@tanstack/react-query';
import { alertSchema, type Alert } from '@cloudtrim/contracts/alerts';
import { requestJson } from '../../../lib/api-client';
import { alertQueryKeys } from './get-alerts';

// POST /api/v1/alert/{id}/acknowledge, for one alert or each of those shown.
export function acknowledgeAlert(id: string): Promise<Alert> {
  return requestJson(`/api/v1/alert/${encodeURIComponent(id)}/acknowledge`, alertSchema, { method: 'POST' });
}

export function useAcknowledgeAlerts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: readonly string[]) => Promise.all(ids.map(acknowledgeAlert)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: alertQueryKeys.all }),
  });
}
