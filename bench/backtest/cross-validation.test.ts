import { describe, expect, it } from 'vitest';
import type { FleetScore, MachineFuture } from '@cloudtrim/rightsizing/backtest-scoring';
import { crossValidate, dealFolds, meetsTargets } from './cross-validation';

const score = (figures: Partial<FleetScore>): FleetScore => ({
  savingShareOfOracle: 1,
  saving: 100,
  oracleSaving: 100,
  overloadedStepShare: 0.001,
  worstAddedOverloadShare: 0.01,
  worstVm: null,
  resizedDown: 10,
  rollbacks: 0,
  throttledSteps: 0,
  machines: [],
  ...figures,
});

const futures = Array.from(
  { length: 10 },
  (_, index): MachineFuture => ({
    vm: `vm${index}`,
    current: { name: 'D2', vcpus: 2, hourlyUsd: 0.1 },
    future: new Float64Array(1),
    stepMinutes: 5,
  }),
);

describe('cross-validation', () => {
  it('deals every machine to one fold, every `folds`-th to the same', () => {
    const { held, training } = dealFolds(futures, 5, 1);
    expect(held.map((machine) => machine.vm)).toEqual(['vm1', 'vm6']);
    expect(training).toHaveLength(8);
  });

  it('fits on the other folds (the candidate meeting the targets that saves most) and judges on the fold', () => {
    // 'greedy' saves most but breaks the rollbacks target whenever vm3 is in the training folds.
    const results = crossValidate(futures, 5, ['as set', 'greedy'], (machines, candidate) => {
      const hasVm3 = machines.some((machine) => machine.vm === 'vm3');
      return candidate === 'greedy'
        ? score({ saving: 120, rollbacks: hasVm3 ? 2 : 0 })
        : score({ saving: 100, rollbacks: 0 });
    });
    // Only the fold holding vm3 out fits 'greedy'.
    expect(results.map((result) => result.chosen)).toEqual([
      'as set',
      'as set',
      'as set',
      'greedy',
      'as set',
    ]);
    expect(results[3]!.held.saving).toBe(120);
  });

  it('a tie keeps the earlier candidate, and with none meeting the targets the one overloading least wins', () => {
    expect(crossValidate(futures, 2, ['as set', 'other'], () => score({}))[0]!.chosen).toBe('as set');
    const results = crossValidate(futures, 2, ['hot', 'cool'], (_, candidate) =>
      score({ overloadedStepShare: candidate === 'hot' ? 0.02 : 0.01 }),
    );
    expect(results.map((result) => result.chosen)).toEqual(['cool', 'cool']);
    expect(meetsTargets(score({ worstAddedOverloadShare: 0.021 }))).toBe(false);
  });
});
