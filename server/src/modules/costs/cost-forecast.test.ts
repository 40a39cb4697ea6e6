import { describe, expect, it } from 'vitest';
import { forecastPeriodCost, forecastRunRate, type DailyCost } from './cost-forecast';
import { dayMs } from '../../lib/time';

function formatDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

// Daily costs from `from` to the day before `today`, each from the day's time.
function buildDays(from: string, today: string, costOf: (time: number) => number): DailyCost[] {
  const days: DailyCost[] = [];
  for (let time = Date.parse(from); time < Date.parse(today); time += dayMs) {
    days.push({ day: formatDay(time), cost: costOf(time) });
  }
  return days;
}

const isWeekend = (time: number) => [0, 6].includes(new Date(time).getUTCDay());
// Machines shut down at weekends: a weekday costs 100, a weekend day 40, with a little noise.
const weekly = (time: number) => (isWeekend(time) ? 40 : 100) * (1 + 0.01 * Math.sin(time / dayMs));

function sumPeriod(from: string, to: string, costOf: (time: number) => number): number {
  let total = 0;
  for (let time = Date.parse(from); time <= Date.parse(to); time += dayMs) total += costOf(time);
  return total;
}

describe('forecastPeriodCost', () => {
  const november = { from: '2026-11-01', to: '2026-11-30' };

  it('follows the weekly pattern, where the run-rate of a month begun on a weekend is far off', () => {
    // 2026-11-01 is a Sunday: two days in, one of them a weekend day.
    const today = '2026-11-03';
    const forecast = forecastPeriodCost({ days: buildDays('2026-08-01', today, weekly), today, ...november });
    const actual = sumPeriod(november.from, november.to, weekly);
    const monthToDate = sumPeriod('2026-11-01', '2026-11-02', weekly);
    expect(Math.abs(forecast.expected / actual - 1)).toBeLessThan(0.02);
    expect(Math.abs(forecastRunRate(monthToDate, 2, 30) / actual - 1)).toBeGreaterThan(0.1);
    const saturday = forecast.days.find((day) => day.day === '2026-11-07')!;
    const monday = forecast.days.find((day) => day.day === '2026-11-09')!;
    expect(saturday).toMatchObject({ kind: 'forecast' });
    expect(saturday.cost / monday.cost).toBeCloseTo(0.4, 1);
  });

  it('answers the period with the known days as they are and the rest forecast, the band around the total', () => {
    const today = '2026-11-12';
    const forecast = forecastPeriodCost({ days: buildDays('2026-08-01', today, weekly), today, ...november });
    expect(forecast.days).toHaveLength(30);
    expect(forecast.days.filter((day) => day.kind === 'actual').map((day) => day.day)).toEqual(
      buildDays('2026-11-01', today, weekly).map((day) => day.day),
    );
    const actualSoFar = sumPeriod('2026-11-01', '2026-11-11', weekly);
    const forecastSum = forecast.days.reduce((sum, day) => sum + day.cost, 0);
    expect(forecast.expected).toBeCloseTo(forecastSum, 6);
    expect(forecast.days[0]).toMatchObject({ low: forecast.days[0]!.cost, high: forecast.days[0]!.cost });
    expect(
      forecast.days.filter((day) => day.kind === 'actual').reduce((sum, day) => sum + day.cost, 0),
    ).toBeCloseTo(actualSoFar, 6);
    expect(forecast.low).toBeLessThanOrEqual(forecast.expected);
    expect(forecast.high).toBeGreaterThanOrEqual(forecast.expected);
    expect(forecast.low).toBeGreaterThanOrEqual(actualSoFar);
    for (const day of forecast.days) {
      expect(day.low).toBeLessThanOrEqual(day.cost);
      expect(day.high).toBeGreaterThanOrEqual(day.cost);
    }
  });

  it('takes a step of the level (a resize, a new VM) from the days since it', () => {
    const stepAt = Date.parse('2026-11-06');
    const stepped = (time: number) => weekly(time) * (time >= stepAt ? 1.5 : 1);
    const today = '2026-11-11';
    const forecast = forecastPeriodCost({
      days: buildDays('2026-08-01', today, stepped),
      today,
      ...november,
    });
    const actual = sumPeriod(november.from, november.to, stepped);
    expect(Math.abs(forecast.expected / actual - 1)).toBeLessThan(0.03);
  });

  it('does not spread a one-off charge over the rest of the month, as the run-rate does', () => {
    const purchase = (time: number) => weekly(time) + (formatDay(time) === '2026-11-03' ? 5000 : 0);
    const today = '2026-11-06';
    const forecast = forecastPeriodCost({
      days: buildDays('2026-08-01', today, purchase),
      today,
      ...november,
    });
    const actual = sumPeriod(november.from, november.to, purchase);
    expect(Math.abs(forecast.expected / actual - 1)).toBeLessThan(0.02);
    const runRate = forecastRunRate(sumPeriod('2026-11-01', '2026-11-05', purchase), 5, 30);
    expect(runRate / actual).toBeGreaterThan(2);
  });

  it('lowers the days from a known change on by its daily delta, and no day before', () => {
    const today = '2026-11-05';
    const days = buildDays('2026-08-01', today, weekly);
    const plain = forecastPeriodCost({ days, today, ...november });
    const changed = forecastPeriodCost({
      days,
      today,
      ...november,
      changes: [{ fromDay: '2026-11-20', dailyDelta: -30 }],
    });
    for (const [index, day] of changed.days.entries()) {
      const before = plain.days[index]!;
      if (day.day < '2026-11-20') expect(day.cost).toBeCloseTo(before.cost, 6);
      else expect(day.cost).toBeCloseTo(Math.max(0, before.cost - 30), 6);
    }
    expect(changed.expected).toBeCloseTo(plain.expected - 30 * 11, 6);
    expect(changed.low).toBeLessThanOrEqual(changed.expected);
    expect(changed.high).toBeGreaterThanOrEqual(changed.expected);
  });

  it('counts a day missing between known days as nothing spent, and forecasts the days after the last one', () => {
    const today = '2026-11-10';
    const days = buildDays('2026-08-01', '2026-11-08', weekly).filter((day) => day.day !== '2026-11-04');
    const forecast = forecastPeriodCost({ days, today, ...november });
    expect(forecast.days.find((day) => day.day === '2026-11-04')).toMatchObject({ cost: 0, kind: 'actual' });
    expect(forecast.days.find((day) => day.day === '2026-11-08')).toMatchObject({ kind: 'forecast' });
    // Today's partial cost is not a known day.
    const withToday = forecastPeriodCost({
      days: [...days, { day: '2026-11-08', cost: 100 }, { day: today, cost: 1 }],
      today,
      ...november,
    });
    expect(withToday.days.find((day) => day.day === today)).toMatchObject({ kind: 'forecast' });
  });

  it("counts today's cost so far as spent (as the month-to-date card does), never forecasting today below it", () => {
    const today = '2026-11-10';
    const days = buildDays('2026-08-01', today, weekly);
    const known = days.filter((day) => day.day >= '2026-11-01').reduce((sum, day) => sum + day.cost, 0);
    const withToday = forecastPeriodCost({ days: [...days, { day: today, cost: 7 }], today, ...november });
    expect(withToday.spent).toBeCloseTo(known + 7, 9);
    expect(withToday.days.find((day) => day.day === today)).toMatchObject({ kind: 'forecast', soFar: 7 });
    // A day that has already cost more than its forecast is forecast at what it has cost.
    const heavy = forecastPeriodCost({ days: [...days, { day: today, cost: 10_000 }], today, ...november });
    expect(heavy.days.find((day) => day.day === today)!.cost).toBe(10_000);
    expect(heavy.low).toBeGreaterThanOrEqual(heavy.spent);
    // A period that has not begun has spent nothing.
    const next = forecastPeriodCost({ days, today, from: '2026-12-01', to: '2026-12-31' });
    expect(next.spent).toBe(0);
  });

  it('forecasts a quarter from the same days, with a band as wide as the past allows and wider', () => {
    const today = '2026-10-05';
    const days = buildDays('2026-07-08', today, weekly);
    const quarter = forecastPeriodCost({ days, today, from: '2026-10-01', to: '2026-12-31' });
    const actual = sumPeriod('2026-10-01', '2026-12-31', weekly);
    expect(quarter.days).toHaveLength(92);
    expect(Math.abs(quarter.expected / actual - 1)).toBeLessThan(0.03);
    expect(quarter.low).toBeLessThan(quarter.expected);
    expect(quarter.high).toBeGreaterThan(quarter.expected);
  });

  // The band's half-width as a share of what is left to forecast.
  const readBandShare = (forecast: { expected: number; high: number; spent: number }) =>
    (forecast.high - forecast.expected) / (forecast.expected - forecast.spent);
  // Steps of +20% every 30 days from 2026-08-11; staged: each followed a week later by another.
  const steps =
    (isStaged: boolean) =>
    (time: number): number => {
      const elapsed = Math.floor((time - Date.parse('2026-08-01')) / dayMs);
      let level = 100;
      for (let step = 10; step <= elapsed; step += 30) level *= 1.2;
      if (isStaged) for (let step = 17; step <= elapsed; step += 30) level *= 1.2;
      return level * (1 + 0.01 * Math.sin((2.3 * time) / dayMs));
    };

  it('widens the band right after a step where the past shows steps coming in stages, and it holds', () => {
    // 2026-11-13: four days after a step; on the staged bill another comes on 2026-11-16.
    const today = '2026-11-13';
    const staged = forecastPeriodCost({
      days: buildDays('2026-08-01', today, steps(true)),
      today,
      ...november,
    });
    const single = forecastPeriodCost({
      days: buildDays('2026-08-01', today, steps(false)),
      today,
      ...november,
    });
    expect(readBandShare(staged)).toBeGreaterThan(readBandShare(single));
    const actual = sumPeriod(november.from, november.to, steps(true));
    expect(staged.low).toBeLessThanOrEqual(actual);
    expect(staged.high).toBeGreaterThanOrEqual(actual);
  });

  it('spans a step of a few days that the weeks before never showed, where the past alone would be narrow', () => {
    const jumpAt = Date.parse('2026-11-04');
    const jump = (time: number) =>
      100 * (time >= jumpAt ? 1.3 : 1) * (1 + 0.01 * Math.sin((2.3 * time) / dayMs));
    const flat = (time: number) => 100 * (1 + 0.01 * Math.sin((2.3 * time) / dayMs));
    const today = '2026-11-07';
    const calm = forecastPeriodCost({ days: buildDays('2026-08-01', today, flat), today, ...november });
    const stepped = forecastPeriodCost({ days: buildDays('2026-08-01', today, jump), today, ...november });
    expect(readBandShare(calm)).toBeLessThan(0.05);
    // Three days at +30% after three months within ±1%: the band spans the step.
    expect(readBandShare(stepped)).toBeGreaterThan(0.25);
    const actual = sumPeriod(november.from, november.to, jump);
    expect(stepped.high).toBeGreaterThanOrEqual(actual);
  });

  it('falls back to the rate the latest days run at when a trend the history shows has stopped', () => {
    // Rising by 2 a day for three months, flat from November on: the run-rate is right, a trend is not.
    const flatFrom = Date.parse('2026-11-01');
    const ramp = (time: number) =>
      (100 + (2 * (Math.min(time, flatFrom) - Date.parse('2026-08-01'))) / dayMs) *
      (1 + 0.01 * Math.sin((2.3 * time) / dayMs));
    const actual = sumPeriod(november.from, november.to, ramp);
    for (const today of ['2026-11-10', '2026-11-15', '2026-11-20']) {
      const forecast = forecastPeriodCost({ days: buildDays('2026-08-01', today, ramp), today, ...november });
      const elapsed = (Date.parse(today) - flatFrom) / dayMs;
      const runRate = forecastRunRate(
        sumPeriod(november.from, formatDay(Date.parse(today) - dayMs), ramp),
        elapsed,
        30,
      );
      // Not worse than the run-rate beyond noise (1% of the month), and the band holds.
      expect(Math.abs(forecast.expected - actual)).toBeLessThanOrEqual(
        Math.abs(runRate - actual) + 0.01 * actual,
      );
      expect(forecast.low).toBeLessThanOrEqual(actual);
      expect(forecast.high).toBeGreaterThanOrEqual(actual);
    }
  });

  it('keeps the fitted level where the latest days agree with the weeks before, one-off charges aside', () => {
    // A purchase on two days in a row: the latest week's median stays with the weeks before.
    const purchases = (time: number) =>
      weekly(time) + (['2026-11-03', '2026-11-04'].includes(formatDay(time)) ? 3000 : 0);
    const today = '2026-11-07';
    const forecast = forecastPeriodCost({
      days: buildDays('2026-08-01', today, purchases),
      today,
      ...november,
    });
    const actual = sumPeriod(november.from, november.to, purchases);
    expect(Math.abs(forecast.expected / actual - 1)).toBeLessThan(0.02);
  });

  it('answers nothing spent for a scope without costs', () => {
    const forecast = forecastPeriodCost({ days: [], today: '2026-11-05', ...november });
    expect(forecast).toMatchObject({ expected: 0, low: 0, high: 0 });
    expect(forecast.days).toHaveLength(30);
  });
});
