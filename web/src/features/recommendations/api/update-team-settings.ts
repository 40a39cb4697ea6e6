import { useMutation, useQueryClient } from '@tanstack/react-query';
import { teamSettingsSchema, type TeamSettings } from '@cloudtrim/contracts/recommendations';
import { requestVoid } from '../../../lib/api-client';
import { teamSettingsQueryKeys } from './get-team-settings';

// PUT /api/v1/team/settings with the whole settings object as JSON.
export function updateTeamSettings(settings: TeamSettings): Promise<void> {
  return requestVoid('/api/v1/team/settings', { method: 'PUT', body: teamSettingsSchema.parse(settings) });
}

export function useUpdateTeamSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTeamSettings,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamSettingsQueryKeys.all }),
  });
}
