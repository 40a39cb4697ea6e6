import { describe, expect, it } from 'vitest';
import { findCostAnomalies, predictDayCost, type ResourceCosts } from './cost-anomalies';
import { dayMs } from '../../lib/time';

function formatDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

// A resource's daily costs from `from` to `to`, each from the day's time (0: no entry).
function buildResource(
  resourceId: string,
  from: string,
  to: string,
  costOf: (time: number) => number,
  changedOn?: string[],
): ResourceCosts {
  const days = new Map<string, number>();
  for (let time = Date.parse(from); time <= Date.parse(to); time += dayMs) {
    const cost = costOf(time);
    if (cost > 0) days.set(formatDay(time), cost);
  }
  return { resourceId, days, ...(changedOn ? { changedOn } : {}) };
}

const isWeekend = (time: number) => [0, 6].includes(new Date(time).getUTCDay());
// A little usage noise on every day, as metered services have.
const wobble = (time: number, seed: number) => 1 + 0.03 * Math.sin(time / dayMs + seed);
const between = (time: number, from: string, to: string) =>
  time >= Date.parse(from) && time <= Date.parse(to);

// An estate's resource group: production machines every day, development ones on weekdays only.
function buildEstate(to: string): ResourceCosts[] {
  return [
    buildResource('vm-web-1', '2026-06-01', to, (time) => 48 * wobble(time, 1)),
    buildResource('vm-web-2', '2026-06-01', to, (time) => 48 * wobble(time, 2)),
    buildResource('vm-build', '2026-06-01', to, (time) => (isWeekend(time) ? 0 : 60 * wobble(time, 3))),
  ];
}

const judged = { from: '2026-09-01', to: '2026-10-31', settledTo: '2026-10-31', minimumImpact: 1 };

describe('findCostAnomalies', () => {
  it('finds nothing in weeks of an ordinary bill, weekends shut down included', () => {
    expect(findCostAnomalies({ resources: buildEstate('2026-10-31'), ...judged })).toEqual([]);
  });

  it('finds a forgotten machine once, on its first day, naming it first with what it was expected to cost', () => {
    const forgotten = buildResource('vm-test-large', '2026-10-07', '2026-10-19', () => 52);
    const anomalies = findCostAnomalies({ resources: [...buildEstate('2026-10-31'), forgotten], ...judged });
    expect(anomalies).toHaveLength(1);
    const [anomaly] = anomalies;
    expect(anomaly).toMatchObject({ day: '2026-10-07', direction: 'above' });
    expect(anomaly!.actual - anomaly!.expected).toBeGreaterThan(45);
    expect(anomaly!.actual).toBeGreaterThan(anomaly!.high);
    expect(anomaly!.drivers[0]).toEqual({ resourceId: 'vm-test-large', expected: 0, actual: 52 });
    expect(anomaly!.drivers.map((driver) => driver.resourceId)).not.toContain('vm-build');
  });

  it('takes a new level that holds as the bill from then on: one anomaly, not one a day', () => {
    const added = buildResource('vm-web-3', '2026-10-05', '2026-10-31', (time) => 48 * wobble(time, 4));
    const anomalies = findCostAnomalies({ resources: [...buildEstate('2026-10-31'), added], ...judged });
    expect(anomalies.map((anomaly) => [anomaly.day, anomaly.direction])).toEqual([['2026-10-05', 'above']]);
    expect(anomalies[0]!.days).toBeLessThanOrEqual(7);
  });

  it('finds an App Service plan whose price jumped, and nothing when it is scaled back down', () => {
    const plan = buildResource('plan-shop', '2026-06-01', '2026-10-31', (time) =>
      between(time, '2026-10-10', '2026-10-20') ? 4 * 16.2 : 16.2,
    );
    const anomalies = findCostAnomalies({ resources: [plan], ...judged });
    expect(anomalies.map((anomaly) => [anomaly.day, anomaly.direction])).toEqual([['2026-10-10', 'above']]);
  });

  it('expects the new rate of a machine Cloudtrim resized from the change’s day: no anomaly', () => {
    const resized = (time: number) => (time >= Date.parse('2026-10-12') ? 12 : 48) * wobble(time, 1);
    const withChange = [
      buildResource('vm-web-1', '2026-06-01', '2026-10-31', resized, ['2026-10-12']),
      ...buildEstate('2026-10-31').slice(1),
    ];
    expect(findCostAnomalies({ resources: withChange, ...judged })).toEqual([]);
    // The same fall unexplained is an anomaly below the band.
    const unexplained = [
      buildResource('vm-web-1', '2026-06-01', '2026-10-31', resized),
      ...buildEstate('2026-10-31').slice(1),
    ];
    expect(findCostAnomalies({ resources: unexplained, ...judged })).toMatchObject([
      { day: '2026-10-12', direction: 'below' },
    ]);
  });

  it('judges the days still settling only for rising: a partial day is low, not an anomaly', () => {
    const estate = buildEstate('2026-10-30');
    const partial = estate.map((resource) => ({
      ...resource,
      days: new Map([...resource.days, ['2026-10-31', (resource.days.get('2026-10-30') ?? 0) * 0.3]]),
    }));
    expect(findCostAnomalies({ resources: partial, ...judged, settledTo: '2026-10-27' })).toEqual([]);
    const risen = [
      ...buildEstate('2026-10-31'),
      buildResource('vm-scale', '2026-10-31', '2026-10-31', () => 80),
    ];
    expect(findCostAnomalies({ resources: risen, ...judged, settledTo: '2026-10-27' })).toMatchObject([
      { day: '2026-10-31', direction: 'above' },
    ]);
  });

  it('does not judge a day the bill was not read for, and takes it as the week before in the history', () => {
    const estate = buildEstate('2026-10-31').map((resource) => ({
      ...resource,
      days: new Map([...resource.days].filter(([day]) => day !== '2026-10-20')),
    }));
    expect(findCostAnomalies({ resources: estate, ...judged })[0]).toMatchObject({
      day: '2026-10-20',
      direction: 'below',
    });
    expect(findCostAnomalies({ resources: estate, ...judged, unreadDays: new Set(['2026-10-20']) })).toEqual(
      [],
    );
  });

  it('needs a difference worth an alert, whatever the band', () => {
    const tiny = buildResource('disk', '2026-06-01', '2026-10-31', (time) =>
      formatDay(time) === '2026-10-14' ? 0.9 : 0.3,
    );
    expect(findCostAnomalies({ resources: [tiny], ...judged, minimumImpact: 5 })).toEqual([]);
    expect(findCostAnomalies({ resources: [tiny], ...judged, minimumImpact: 0.1 })).toHaveLength(1);
  });
});

describe('predictDayCost', () => {
  it('follows the weekly pattern and a trend, and tells no band from under two weeks', () => {
    const first = Date.parse('2026-08-03') / dayMs;
    const history = Array.from({ length: 56 }, (_, offset) => {
      const time = (first + offset) * dayMs;
      return (isWeekend(time) ? 40 : 100) + offset;
    });
    const monday = Date.parse('2026-09-28') / dayMs;
    const saturday = Date.parse('2026-10-03') / dayMs;
    expect(predictDayCost(history, first, monday, 0).expected).toBeGreaterThan(140);
    // The weekend costs 60 less, whatever the trend has added since.
    const weekendSaving =
      predictDayCost(history, first, monday, 0).expected -
      predictDayCost(history, first, saturday, 0).expected;
    expect(weekendSaving).toBeGreaterThan(50);
    expect(weekendSaving).toBeLessThan(70);
    expect(predictDayCost(history.slice(0, 10), first, monday, 0)).toEqual({
      expected: 0,
      low: 0,
      high: Number.POSITIVE_INFINITY,
    });
  });
});
