import { describe, expect, it } from 'vitest';
import type { Budget } from '@cloudtrim/contracts/budgets';
import { ApiError } from '../../../lib/api-client';
import {
  buildBudgetRequest,
  checkBudgetRequest,
  createBudgetDraft,
  readBudgetDraft,
  readSaveErrors,
} from './budget-draft';
import { describeBudgetScope, formatBudgetDay } from './budget-text';

const tenantId = '0b2f5e4c-8a3d-4f61-9c7e-2d1a6b9e0f34';

describe('the budget form', () => {
  it('starts as a monthly actual-cost budget from this month, alerting the whole team at 100%', () => {
    const draft = createBudgetDraft(new Date('2026-11-25T10:00:00Z'));
    expect(buildBudgetRequest({ ...draft, name: 'Web', amount: '500' })).toEqual({
      Name: 'Web',
      Scope: { TenantId: undefined, SubscriptionId: undefined, ResourceGroup: undefined, Tag: undefined },
      Amount: 500,
      Period: 'monthly',
      StartDate: '2026-11-01',
      CostType: 'actual',
      Thresholds: [{ Percent: 100, Basis: 'actual', Recipients: { AllTeam: true, Emails: [] } }],
    });
  });

  it('reads a budget back into the form as it was saved', () => {
    const budget = {
      Name: 'Web',
      Scope: { TenantId: tenantId, ResourceGroup: 'web-rg' },
      Amount: 250.5,
      Period: 'quarterly',
      StartDate: '2026-10-01',
      CostType: 'amortized',
      Thresholds: [
        { Percent: 80, Basis: 'forecasted', Recipients: { AllTeam: false, Emails: ['ann@example.com'] } },
      ],
    } as Budget;
    const request = buildBudgetRequest(readBudgetDraft(budget));
    expect(request).toMatchObject({
      Name: 'Web',
      Scope: { TenantId: tenantId, ResourceGroup: 'web-rg' },
      Amount: 250.5,
      Period: 'quarterly',
      StartDate: '2026-10-01',
      CostType: 'amortized',
      Thresholds: budget.Thresholds,
    });
  });

  it('names each field the contract refuses', () => {
    const draft = createBudgetDraft(new Date('2026-11-25T10:00:00Z'));
    const errors = checkBudgetRequest(
      buildBudgetRequest({
        ...draft,
        amount: '0',
        thresholds: [
          { percent: '1001', basis: 'actual', isAllTeam: true, emails: [] },
          { percent: 'x', basis: 'actual', isAllTeam: true, emails: [] },
        ],
      }),
    );
    expect(errors).toEqual({
      Name: 'Name is required.',
      Amount: 'Amount must be more than 0.',
      'Thresholds.0.Percent': 'Percent must be from 1 to 1000.',
      'Thresholds.1.Percent': 'Percent must be a number from 1 to 1000.',
    });
  });

  it('shows the server’s refusal by the field it names, without the field’s name before it', () => {
    const body = {
      statusCode: 400,
      message: 'Not a member of the team: x@example.com.',
      field: 'Thresholds.0.Recipients.Emails',
    };
    expect(readSaveErrors(new ApiError(400, 'Bad Request', body.message, body))).toEqual({
      'Thresholds.0.Recipients.Emails': 'Not a member of the team: x@example.com.',
    });
    const prefixed = { statusCode: 400, message: 'Amount: Amount must be more than 0.', field: 'Amount' };
    expect(readSaveErrors(new ApiError(400, 'Bad Request', prefixed.message, prefixed))).toEqual({
      Amount: 'Amount must be more than 0.',
    });
    expect(readSaveErrors(new ApiError(null, '', 'Failed to fetch'))).toEqual({ '': 'Failed to fetch' });
  });
});

describe('a budget in words', () => {
  it('writes its scope and days', () => {
    const names = new Map([[tenantId, 'Contoso']]);
    expect(describeBudgetScope({}, names)).toBe('All of the team’s tenants');
    expect(describeBudgetScope({ TenantId: tenantId, ResourceGroup: 'web-rg' }, names)).toBe(
      'Tenant Contoso · resource group web-rg',
    );
    expect(describeBudgetScope({ Tag: 'env=prod' }, names)).toBe('Tag env=prod');
    expect(formatBudgetDay('2026-11-01')).toBe('Nov 1, 2026');
  });
});
