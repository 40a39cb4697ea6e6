import { useMemo } from 'react';
import { SecurityPage } from '../../features/security/components/security-page';
import { useTenants } from '../../features/tenants/api/get-tenants';

/** /security: the findings and scores, with the tenants feature's list for its tenant filter. */
export function SecurityRoute() {
  const tenants = useTenants();
  const options = useMemo(
    () => (tenants.data ?? []).map((tenant) => ({ id: tenant.Id, name: tenant.FriendlyName })),
    [tenants.data],
  );
  return <SecurityPage tenants={options} />;
}
