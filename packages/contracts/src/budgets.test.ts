import { describe, expect, it } from 'vitest';
import { budgetRequestSchema, getBudgetThresholdKey } from './budgets';

const valid = {
  Name: ' Production ',
  Amount: 1200,
  Period: 'monthly',
  StartDate: '2026-11-01',
  Thresholds: [{ Percent: 80, Basis: 'actual', Recipients: { AllTeam: false, Emails: ['Ops@Example.com'] } }],
};

function readField(input: unknown): string | undefined {
  const result = budgetRequestSchema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]!.path.join('.');
}

describe('a budget request', () => {
  it('reads a whole-team actual budget by default, names trimmed and emails lower case', () => {
    expect(budgetRequestSchema.parse(valid)).toEqual({
      ...valid,
      Name: 'Production',
      Scope: {},
      CostType: 'actual',
      Thresholds: [
        { Percent: 80, Basis: 'actual', Recipients: { AllTeam: false, Emails: ['ops@example.com'] } },
      ],
    });
  });

  it('names the field of each refusal', () => {
    expect(readField({ ...valid, Amount: 0 })).toBe('Amount');
    expect(readField({ ...valid, Amount: 1e9 + 1 })).toBe('Amount');
    expect(readField({ ...valid, StartDate: '2026-11-02' })).toBe('StartDate');
    expect(readField({ ...valid, Period: 'daily' })).toBe('Period');
    expect(readField({ ...valid, Scope: { SubscriptionId: 'prod' } })).toBe('Scope.SubscriptionId');
    expect(readField({ ...valid, Thresholds: [{ ...valid.Thresholds[0], Percent: 1000.5 }] })).toBe(
      'Thresholds.0.Percent',
    );
    expect(readField({ ...valid, Thresholds: Array(6).fill(valid.Thresholds[0]) })).toBe('Thresholds');
    expect(readField({ ...valid, Thresholds: [valid.Thresholds[0], valid.Thresholds[0]] })).toBe(
      'Thresholds.1.Percent',
    );
  });

  it('keys a threshold by its percent and basis', () => {
    expect(getBudgetThresholdKey({ Percent: 150, Basis: 'forecasted' })).toBe('150:forecasted');
  });
});
