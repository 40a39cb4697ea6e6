import { useMutation, useQueryClient } from '@tanstack/react-query';
import { applyRecommendationResponseSchema } from '@cloudtrim/contracts/recommendations';
import { requestJson } from '../../../lib/api-client';
import { automationLogQueryRoot, scheduleQueryRoot } from '../../../lib/query-roots';

export type ApplyTiming = 'now' | 'maintenanceWindow';

const applyPathSegments: Readonly<Record<ApplyTiming, string>> = {
  now: 'now',
  maintenanceWindow: 'maintenancewindow',
};

export function buildApplyRecommendationPath(id: number, timing: ApplyTiming): string {
  const query = new URLSearchParams({ id: String(id) }).toString();
  return `/api/v1/log/recommendation/apply/${applyPathSegments[timing]}?${query}`;
}

// GET …/apply/now?id= and …/apply/maintenancewindow?id=: SPEC does not show the answer's body.
export async function applyRecommendation({
  id,
  timing,
}: {
  id: number;
  timing: ApplyTiming;
}): Promise<void> {
  await requestJson(buildApplyRecommendationPath(id, timing), applyRecommendationResponseSchema);
}

export function useApplyRecommendation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: applyRecommendation,
    // The recommendation list is left alone so the applied row stays on screen saying so.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: scheduleQueryRoot }),
        queryClient.invalidateQueries({ queryKey: automationLogQueryRoot }),
      ]),
  });
}
