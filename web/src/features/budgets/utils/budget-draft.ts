import {
  budgetRequestSchema,
  type Budget,
  type BudgetBasis,
  type BudgetPeriod,
  type BudgetRequest,
} from '@cloudtrim/contracts/budgets';
import type { CostType } from '@cloudtrim/contracts/costs';
import { ApiError } from '../../../lib/api-client';

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

/** Where a message with no field of its own is kept. */
export const formErrorKey = '';

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
  const parsed = budgetRequestSchema.safeParse(request);
  const errors: BudgetFieldErrors = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const key = issue.path.join('.');
    errors[key] ??= issue.message;
  }
  return errors;
}

/** A refused save's message, by the field the server named (its `field: ` prefix taken off). */
export function readSaveErrors(error: Error): BudgetFieldErrors {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) {
    return { [formErrorKey]: error.message };
  }
  const body = error.body as { field?: unknown; message?: unknown };
  const field = typeof body.field === 'string' ? body.field : formErrorKey;
  const message = typeof body.message === 'string' ? body.message : error.message;
  return { [field]: field && message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message };
}
