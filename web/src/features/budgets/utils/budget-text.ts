import type { BudgetPeriod, BudgetScope } from '@cloudtrim/contracts/budgets';

// How a budget is written in its list: its scope in words, its period, its days ("Nov 1, 2026",
// written by hand as /analysis writes days).

const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export const wholeTeamScopeText = 'All of the team’s tenants';
export const inAzureText = 'In Azure';

export const budgetPeriodLabels: Record<BudgetPeriod, string> = {
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  yearly: 'Yearly',
};

export function formatBudgetDay(day: string): string {
  const [year, month, dayOfMonth] = day.slice(0, 10).split('-').map(Number);
  return `${monthNames[(month ?? 1) - 1]} ${dayOfMonth}, ${year}`;
}

/** `Tenant Contoso · subscription 1111… · resource group web-rg · tag env=prod`. */
export function describeBudgetScope(scope: BudgetScope, tenantNames: ReadonlyMap<string, string>): string {
  const parts = [
    scope.TenantId ? `Tenant ${tenantNames.get(scope.TenantId) ?? scope.TenantId}` : null,
    scope.SubscriptionId ? `subscription ${scope.SubscriptionId}` : null,
    scope.ResourceGroup ? `resource group ${scope.ResourceGroup}` : null,
    scope.Tag ? `tag ${scope.Tag}` : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return wholeTeamScopeText;
  const [first, ...rest] = parts;
  return [first!.charAt(0).toUpperCase() + first!.slice(1), ...rest].join(' · ');
}
