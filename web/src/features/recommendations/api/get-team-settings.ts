import { queryOptions, useQuery } from '@tanstack/react-query';
import { teamSettingsSchema, type TeamSettings } from '@cloudtrim/contracts/recommendations';
import { requestJson } from '../../../lib/api-client';

export const teamSettingsQueryKeys = {
  all: ['team-settings'] as const,
};

// GET /api/v1/team/settings: the engine's lookback and the team's default maintenance window.
export function getTeamSettings({ signal }: { signal?: AbortSignal } = {}): Promise<TeamSettings> {
  return requestJson('/api/v1/team/settings', teamSettingsSchema, { signal });
}

export function getTeamSettingsQueryOptions() {
  return queryOptions({
    queryKey: teamSettingsQueryKeys.all,
    queryFn: ({ signal }) => getTeamSettings({ signal }),
  });
}

export function useTeamSettings() {
  return useQuery(getTeamSettingsQueryOptions());
}
