import {
  budgetRequestSchema,
  type Budget,
  type BudgetBasis,
  type BudgetPeriod,
  type BudgetRequest,
} from '@cloudtrim/contracts/budgets';
import type { CostType } from '@cloudtrim/contracts/costs';
import { checkWithSchema } from '../../../lib/form-errors';

// The budget form's values as typed, the request they make, and the messages shown by each field:
// the contract's own on submit, the server's 400 (which names its field) after it.

export interface ThresholdDraft {
  percent: string;
  basis: BudgetBasis;
  isAllTeam: boolean;
  emails: string[];
}

export interface BudgetDraft {
  name: string;
  tenantId: string;
  subscriptionId: string;
  resourceGroup: string;
  tag: string;
  amount: string;
  period: BudgetPeriod;
  /** YYYY-MM: periods start on the first of a month. */
  startMonth: string;
  costType: CostType;
  thresholds: ThresholdDraft[];
}

/** Messages by the request's field path, as the server names them: `Amount`, `Thresholds.1.Percent`. */
export type BudgetFieldErrors = Record<string, string>;

export { formErrorKey, readSaveErrors } from '../../../lib/form-errors';

export function createThresholdDraft(percent = '100'): ThresholdDraft {
  return { percent, basis: 'actual', isAllTeam: true, emails: [] };
}

export function createBudgetDraft(today: Date = new Date()): BudgetDraft {
  return {
    name: '',
    tenantId: '',
    subscriptionId: '',
    resourceGroup: '',
    tag: '',
    amount: '',
    period: 'monthly',
    startMonth: today.toISOString().slice(0, 7),
    costType: 'actual',
    thresholds: [createThresholdDraft()],
  };
}

export function readBudgetDraft(budget: Budget): BudgetDraft {
  return {
    name: budget.Name,
    tenantId: budget.Scope.TenantId ?? '',
    subscriptionId: budget.Scope.SubscriptionId ?? '',
    resourceGroup: budget.Scope.ResourceGroup ?? '',
    tag: budget.Scope.Tag ?? '',
    amount: String(budget.Amount),
    period: budget.Period,
    startMonth: budget.StartDate.slice(0, 7),
    costType: budget.CostType,
    thresholds: budget.Thresholds.map((threshold) => ({
      percent: String(threshold.Percent),
      basis: threshold.Basis,
      isAllTeam: threshold.Recipients.AllTeam,
      emails: [...threshold.Recipients.Emails],
    })),
  };
}

/** A typed number, or NaN for what is not one (the contract then names the field). */
function readNumber(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text.trim());
}

function readOptional(text: string): string | undefined {
  return text.trim() === '' ? undefined : text.trim();
}

export function buildBudgetRequest(draft: BudgetDraft): BudgetRequest {
  return {
    Name: draft.name,
    Scope: {
      TenantId: readOptional(draft.tenantId),
      SubscriptionId: readOptional(draft.subscriptionId)?.toLowerCase(),
      ResourceGroup: readOptional(draft.resourceGroup),
      Tag: readOptional(draft.tag),
    },
    Amount: readNumber(draft.amount),
    Period: draft.period,
    StartDate: `${draft.startMonth}-01`,
    CostType: draft.costType,
    Thresholds: draft.thresholds.map((threshold) => ({
      Percent: readNumber(threshold.percent),
      Basis: threshold.basis,
      Recipients: { AllTeam: threshold.isAllTeam, Emails: threshold.isAllTeam ? [] : threshold.emails },
    })),
  };
}

/** The contract's first message for each field; empty when the request may be sent. */
export function checkBudgetRequest(request: BudgetRequest): BudgetFieldErrors {
  return checkWithSchema(budgetRequestSchema, request);
}
