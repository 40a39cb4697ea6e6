import { useMemo } from 'react';
import { Pipelines } from '../../features/pipelines/components/pipelines';
import { useTenants } from '../../features/tenants/api/get-tenants';

/** /automation: the team's pipelines, with the tenants feature's list to scope them by (the shell has loaded it). */
export function AutomationRoute() {
  const tenants = useTenants();
  const options = useMemo(
    () => (tenants.data ?? []).map((tenant) => ({ id: tenant.Id, name: tenant.FriendlyName })),
    [tenants.data],
  );
  return <Pipelines tenants={options} />;
}
