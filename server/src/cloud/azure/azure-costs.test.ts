import { describe, expect, it } from 'vitest';
import { buildCostQueryBody, readBudgetAnswer, readCostAnswer, readRetryAfterSeconds } from './azure-costs';

describe('readCostAnswer', () => {
  it('reads columns by name, daily dates as numbers and ids lower case', () => {
    const page = readCostAnswer(
      JSON.stringify({
        properties: {
          nextLink: 'https://management.azure.com/next',
          columns: [
            { name: 'Cost', type: 'Number' },
            { name: 'UsageQuantity', type: 'Number' },
            { name: 'UsageDate', type: 'Number' },
            { name: 'ResourceId', type: 'String' },
            { name: 'ServiceName', type: 'String' },
            { name: 'Currency', type: 'String' },
          ],
          rows: [
            [
              12.5,
              24,
              20261101,
              '/subscriptions/A/resourceGroups/RG/providers/x/y/VM1',
              'Virtual Machines',
              'EUR',
            ],
          ],
        },
      }),
      'Daily',
    );
    expect(page).toEqual({
      nextLink: 'https://management.azure.com/next',
      rows: [
        {
          date: '2026-11-01',
          resourceId: '/subscriptions/a/resourcegroups/rg/providers/x/y/vm1',
          serviceName: 'Virtual Machines',
          cost: 12.5,
          usageQuantity: 24,
          currency: 'EUR',
        },
      ],
    });
  });

  it('reads a billing month and refuses an answer without the columns asked for', () => {
    const body = (columns: string[], row: (string | number)[]) =>
      JSON.stringify({
        properties: { columns: columns.map((name) => ({ name, type: 'String' })), rows: [row] },
      });
    expect(
      readCostAnswer(
        body(
          ['Cost', 'BillingMonth', 'ResourceId', 'ServiceName'],
          [1, '2026-10-01T00:00:00', '', 'Storage'],
        ),
        'Monthly',
      ).rows[0],
    ).toMatchObject({ date: '2026-10-01', currency: 'USD', usageQuantity: 0 });
    expect(() => readCostAnswer(body(['Cost', 'UsageDate'], [1, 20261101]), 'Daily')).toThrow(/columns/);
  });
});

describe('readRetryAfterSeconds', () => {
  it('takes the longest of Cost Management’s waits, and a minute when none is said', () => {
    const headers: Record<string, string> = {
      'x-ms-ratelimit-microsoft.costmanagement-qpu-retry-after': '12',
      'x-ms-ratelimit-microsoft.costmanagement-tenant-retry-after': '40',
    };
    expect(readRetryAfterSeconds((name) => headers[name])).toBe(40);
    expect(readRetryAfterSeconds(() => undefined)).toBe(60);
  });
});

describe('buildCostQueryBody', () => {
  it('asks for cost and quantity by resource and service over whole UTC days', () => {
    expect(
      JSON.parse(
        buildCostQueryBody({
          subscriptionId: 's',
          costType: 'AmortizedCost',
          granularity: 'Daily',
          from: '2026-11-01',
          to: '2026-11-30',
        }),
      ),
    ).toEqual({
      type: 'AmortizedCost',
      timeframe: 'Custom',
      timePeriod: { from: '2026-11-01T00:00:00Z', to: '2026-11-30T23:59:59Z' },
      dataset: {
        granularity: 'Daily',
        aggregation: {
          totalCost: { name: 'Cost', function: 'Sum' },
          totalQuantity: { name: 'UsageQuantity', function: 'Sum' },
        },
        grouping: [
          { type: 'Dimension', name: 'ResourceId' },
          { type: 'Dimension', name: 'ServiceName' },
        ],
      },
    });
  });
});

describe('readBudgetAnswer', () => {
  it("reads Consumption's budgets: amounts, grain, days, spend and forecast with their currency", () => {
    const answer = readBudgetAnswer(
      JSON.stringify({
        value: [
          {
            name: 'production-monthly',
            properties: {
              amount: 12000,
              timeGrain: 'Monthly',
              timePeriod: { startDate: '2025-01-01T00:00:00Z', endDate: '2028-12-31T00:00:00Z' },
              currentSpend: { amount: 8123.456, unit: 'EUR' },
              forecastSpend: { amount: 11900.5, unit: 'EUR' },
            },
          },
          {
            name: 'no-forecast',
            properties: {
              amount: 500,
              timeGrain: 'Annually',
              timePeriod: { startDate: '2026-01-01T00:00:00Z' },
            },
          },
        ],
        nextLink: 'https://management.azure.com/next',
      }),
    );
    expect(answer).toEqual({
      budgets: [
        {
          name: 'production-monthly',
          amount: 12000,
          timeGrain: 'Monthly',
          startDate: '2025-01-01',
          endDate: '2028-12-31',
          currentSpend: 8123.456,
          forecastSpend: 11900.5,
          currency: 'EUR',
        },
        {
          name: 'no-forecast',
          amount: 500,
          timeGrain: 'Annually',
          startDate: '2026-01-01',
          endDate: null,
          currentSpend: 0,
          forecastSpend: null,
          currency: 'USD',
        },
      ],
      nextLink: 'https://management.azure.com/next',
    });
  });
});
