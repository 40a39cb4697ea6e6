import { useMemo } from 'react';
import { Budgets } from '../../features/budgets/components/budgets';
import { CostAnalysis } from '../../features/costs/components/cost-analysis';
import { useTeam } from '../../features/team/api/get-team';
import { useTenants } from '../../features/tenants/api/get-tenants';

/**
 * /analysis: the bill, with the tenants feature's list for its tenant filter (the shell has loaded it),
 * and the budgets under its chart, whose thresholds mail the team feature's members.
 */
export function AnalysisRoute() {
  const tenants = useTenants();
  const team = useTeam();
  const options = useMemo(
    () => (tenants.data ?? []).map((tenant) => ({ id: tenant.Id, name: tenant.FriendlyName })),
    [tenants.data],
  );
  const members = useMemo(
    () =>
      (team.data ?? [])
        .filter((member) => member.Status === 'Active')
        .map((member) => ({
          email: member.EmailAddress,
          name: `${member.FirstName} ${member.LastName}`.trim(),
        })),
    [team.data],
  );
  return <CostAnalysis tenants={options} budgets={<Budgets tenants={options} members={members} />} />;
}
