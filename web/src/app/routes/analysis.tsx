import { useMemo } from 'react';
import { CostAnalysis } from '../../features/costs/components/cost-analysis';
import { useTenants } from '../../features/tenants/api/get-tenants';

/** /analysis: the bill, with the tenants feature's list for its tenant filter (the shell has loaded it). */
export function AnalysisRoute() {
  const tenants = useTenants();
  const options = useMemo(
    () => (tenants.data ?? []).map((tenant) => ({ id: tenant.Id, name: tenant.FriendlyName })),
    [tenants.data],
  );
  return <CostAnalysis tenants={options} />;
}
