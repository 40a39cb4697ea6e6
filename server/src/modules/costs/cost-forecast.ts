// A period's cost (a month or a quarter) forecast from a scope's daily costs, with an 80% band. Pure:
// days in, a forecast out. Cloud bills move in steps (a VM added, resized or covered by a
// reservation moves the level for good), repeat by the week (machines shut down at weekends), drift
// slowly, and carry one-off charges (a reservation's purchase) that a run-rate multiplies by the
// days left. So: day-of-week factors from recent weeks, a robust level from the last two weeks or
// since a step, a damped trend, one-off charges only as far as they recur week after week, the
// known changes from their day; the band from the size of the method's own errors over the past
// at the same horizon, in the same regime (right after a step, or while the latest days disagree
// with what the weeks before foretold). When the latest days disagree with the history beyond what
// the past shows as usual, the forecast falls back toward the rate those days run at.

import { fitSlope, formatDayNumber, median, sumDeviations, toDayNumber, weekday } from './cost-series';

export interface DailyCost {
  day: string;
  cost: number;
}

// A scheduled change alters the daily cost from its day on (a resize: negative).
export interface KnownChange {
  fromDay: string;
  dailyDelta: number;
}

export interface ForecastRequest {
  // Days with no entry between two that have one spent nothing (Cost Management leaves them out);
  // the days after the last entry are not known yet.
  days: readonly DailyCost[];
  from: string;
  to: string;
  // Today is partial: only the days before it fit the model, but what it has cost so far is spent
  // (Azure's budgets count the latest data too), and its forecast is never below it.
  today: string;
  changes?: readonly KnownChange[];
}

export interface ForecastDay {
  day: string;
  cost: number;
  kind: 'actual' | 'forecast';
  low: number;
  high: number;
  // Today's cost so far (today only, when the bill has any).
  soFar?: number;
}

export interface CostForecast {
  expected: number;
  low: number;
  high: number;
  // The period's cost so far: its days before today and what today has cost yet.
  spent: number;
  days: ForecastDay[];
}

// What a fit looks at: eight weeks for the weekly pattern and the trend, the whole series (at most
// this many days) for the band.
const historyLimitDays = 120;
const seasonDays = 56;
const shiftWindowDays = 28;
const levelDays = 14;
// The trend fades by this share a day (about half after a month): a slope seen over eight weeks
// rarely holds for a quarter.
const trendDamping = 0.98;
// A fit needs two weeks for a weekly pattern, three for a trend.
const minimumSeasonDays = 14;
const minimumTrendDays = 21;
// A step must stand this many noise deviations (and this share of the level) clear to be taken as
// a new level; one day off is a one-off charge, not a step.
const shiftNoiseDeviations = 4;
const minimumShiftShare = 0.01;
const minimumShiftDays = 3;
// Most of a step's days must stand beyond half of it (two one-off charges in a row are no step).
const shiftAgreement = 0.75;
// A day this far above the fit is a one-off charge, kept out of the level; the future carries the
// median week's one-off charges over the last four (a purchase seen once is not expected again,
// charges in most weeks are).
const oneOffNoiseDeviations = 5;
const minimumOneOffShare = 0.05;
const oneOffWeeks = 4;
// The band: ± the 80th percentile of the past relative errors' size at the horizon, from at least
// this many past forecasts; with fewer, a wide band on purpose. Their size, not their sign: a bias
// of the past weeks (a growth spurt, a run of purchases) rarely keeps its direction.
const bandCoverage = 0.8;
const minimumBandSamples = 8;
const fallbackBandShare = 0.2;
// The regimes the band is conditioned on: a step found at most this many days ago, and the latest
// days (the period's so far, between these bounds) against what the model of the day before them
// foretold.
const recentStepDays = 14;
const minimumRecentDays = 7;
const maximumRecentDays = 14;
// The guard's weights tried on the past, and how many past disagreeing days choosing one needs.
const guardWeights = [0, 0.25, 0.5, 0.75, 1];
const minimumGuardSamples = 3;
const startGuardUsuals = 2;
const fullGuardUsuals = 4;

interface ForecastModel {
  // Deseasonalised cost on the last known day, the slope a day, the weekly factors by weekday.
  level: number;
  slope: number;
  factors: Float64Array;
  // One-off charges expected a day.
  oneOffRate: number;
  // Days since the step the level was taken from, when one was found.
  sinceShift?: number;
}

// What the latest days say against the model fitted before them: their deseasonalised median
// (since a step, if one was found among them), and how far they stood from the model's foretelling
// (the median ratio, minus one; the sharpest: the largest such size over its last three days or
// more). The guard moves the forecast this weight of the way toward that
// rate.
interface RecentRead {
  disagreement: number;
  sharpest: number;
  rateLevel: number;
}

interface Guard {
  rateLevel: number;
  weight: number;
}

export function forecastPeriodCost(request: ForecastRequest): CostForecast {
  const periodFrom = toDayNumber(request.from);
  const periodTo = toDayNumber(request.to);
  const today = toDayNumber(request.today);
  const costs = new Map<number, number>();
  let todaySoFar = 0;
  for (const entry of request.days) {
    const day = toDayNumber(entry.day);
    if (day === today) todaySoFar += entry.cost;
    if (day >= today) continue;
    costs.set(day, (costs.get(day) ?? 0) + entry.cost);
  }
  const knownDays = [...costs.keys()];
  const lastKnown = knownDays.length > 0 ? Math.max(...knownDays) : periodFrom - 1;
  const firstKnown =
    knownDays.length > 0 ? Math.max(Math.min(...knownDays), lastKnown - historyLimitDays + 1) : lastKnown + 1;
  const series = new Float64Array(lastKnown - firstKnown + 1);
  for (let day = firstKnown; day <= lastKnown; day += 1) series[day - firstKnown] = costs.get(day) ?? 0;

  const origin = lastKnown + 1;
  const horizon = Math.max(0, periodTo - Math.max(origin, periodFrom) + 1);
  const model = fitModel(series, firstKnown);
  const elapsed = Math.max(0, Math.min(origin, periodTo + 1) - periodFrom);
  const recentDays = Math.min(maximumRecentDays, Math.max(minimumRecentDays, elapsed));
  const { band, guard } = calibrateBand(series, firstKnown, horizon, recentDays);
  const changes = (request.changes ?? []).map((change) => ({
    fromDay: toDayNumber(change.fromDay),
    dailyDelta: change.dailyDelta,
  }));

  const days: ForecastDay[] = [];
  let actual = 0;
  let forecast = 0;
  for (let day = periodFrom; day <= periodTo; day += 1) {
    if (day < origin) {
      const cost = costs.get(day) ?? 0;
      actual += cost;
      days.push({ day: formatDayNumber(day), cost, kind: 'actual', low: cost, high: cost });
      continue;
    }
    const ahead = day - origin + 1;
    const delta = changes.reduce((sum, change) => sum + (day >= change.fromDay ? change.dailyDelta : 0), 0);
    const soFar = day === today ? todaySoFar : 0;
    const cost = Math.max(soFar, predictDay(model, day, ahead, guard) + delta);
    forecast += cost;
    const [low, high] = band.daily(day - Math.max(origin, periodFrom) + 1);
    days.push({
      day: formatDayNumber(day),
      cost,
      kind: 'forecast',
      low: Math.max(soFar, cost * (1 + low)),
      high: Math.max(soFar, cost * (1 + high)),
      ...(day === today ? { soFar } : {}),
    });
  }
  const spent = actual + (today >= periodFrom && today <= periodTo ? todaySoFar : 0);
  const [low, high] = band.total;
  return {
    expected: actual + forecast,
    low: Math.max(spent, actual + Math.max(0, forecast * (1 + low))),
    high: Math.max(spent, actual + forecast * (1 + high)),
    spent,
    days,
  };
}

// The run-rate the summary showed before: the complete days so far spread over the whole period.
export function forecastRunRate(monthToDate: number, daysElapsed: number, daysInPeriod: number): number {
  return daysElapsed > 0 ? (monthToDate / daysElapsed) * daysInPeriod : 0;
}

function fitModel(series: Float64Array, firstDay: number): ForecastModel {
  const count = series.length;
  const factors = fitWeeklyFactors(series, firstDay);
  const windowLength = Math.min(count, seasonDays);
  const start = count - windowLength;
  const adjusted = new Float64Array(windowLength);
  for (let index = 0; index < windowLength; index += 1) {
    adjusted[index] = series[start + index]! / factors[weekday(firstDay + start + index)]!;
  }
  if (windowLength === 0) return { level: 0, slope: 0, factors, oneOffRate: 0 };
  const noise = estimateNoise(adjusted);
  let slope = windowLength >= minimumTrendDays ? fitSlope(adjusted) : 0;
  const shift = findShift(adjusted, slope, noise);
  if (shift) {
    // The step is not a trend: the slope is fitted again with the days before it moved to the new level.
    for (let index = 0; index < windowLength - shift.days; index += 1) adjusted[index]! += shift.size;
    slope = windowLength >= minimumTrendDays ? fitSlope(adjusted) : 0;
  }
  const levelLength = shift ? shift.days : Math.min(levelDays, windowLength);
  const detrended: number[] = [];
  for (let index = windowLength - levelLength; index < windowLength; index += 1) {
    detrended.push(adjusted[index]! + slope * (windowLength - 1 - index));
  }
  const level = median(detrended);
  const sinceShift = shift ? { sinceShift: shift.days } : {};
  // One-off charges: days far above the fit, their excess summed by week back from the last day.
  const oneOffThreshold = Math.max(oneOffNoiseDeviations * noise, minimumOneOffShare * Math.abs(level));
  const weeks = Math.min(oneOffWeeks, Math.floor(windowLength / 7));
  const weeklyOneOffs = new Array<number>(weeks).fill(0);
  for (let index = windowLength - weeks * 7; index < windowLength; index += 1) {
    const fitted = level - slope * (windowLength - 1 - index);
    const excess = adjusted[index]! - fitted;
    if (excess <= oneOffThreshold) continue;
    const week = Math.floor((windowLength - 1 - index) / 7);
    weeklyOneOffs[week]! += excess * factors[weekday(firstDay + start + index)]!;
  }
  return { level, slope, factors, oneOffRate: median(weeklyOneOffs) / 7, ...sinceShift };
}

function predictDay(model: ForecastModel, day: number, ahead: number, guard?: Guard): number {
  const trend = (model.slope * trendDamping * (1 - trendDamping ** ahead)) / (1 - trendDamping);
  const fitted = Math.max(0, model.level + trend);
  const level = guard ? (1 - guard.weight) * fitted + guard.weight * guard.rateLevel : fitted;
  return level * model.factors[weekday(day)]! + model.oneOffRate;
}

// The latest `recent` days of a series against the model fitted before them: the median of their
// ratios to its foretelling (minus one), and their own deseasonalised median since the latest step
// among them.
function readRecent(
  series: Float64Array,
  firstDay: number,
  origin: number,
  recent: number,
  before: ForecastModel,
  now: ForecastModel,
): RecentRead {
  const ratios: number[] = [];
  const levels: number[] = [];
  const since = Math.min(recent, now.sinceShift ?? recent);
  for (let index = origin - recent; index < origin; index += 1) {
    const predicted = predictDay(before, firstDay + index, index - (origin - recent) + 1);
    if (predicted > 0) ratios.push(series[index]! / predicted);
    if (index >= origin - since) levels.push(series[index]! / now.factors[weekday(firstDay + index)]!);
  }
  // A step of two or three days hides in a week's median, not in the last three days'.
  let sharpest = 0;
  for (let length = minimumShiftDays; length <= ratios.length; length += 1) {
    sharpest = Math.max(sharpest, Math.abs(median(ratios.slice(ratios.length - length)) - 1));
  }
  return {
    disagreement: ratios.length > 0 ? median(ratios) - 1 : 0,
    sharpest,
    rateLevel: median(levels),
  };
}

// Each weekday's cost against the week around it (a centred 7-day mean), the median over recent
// weeks: a step or a one-off charge moves one week only.
// Under two weeks, against the mean of the days there are.
function fitWeeklyFactors(series: Float64Array, firstDay: number): Float64Array {
  const factors = new Float64Array(7).fill(1);
  const count = series.length;
  if (count < 7) return factors;
  const ratios: number[][] = Array.from({ length: 7 }, () => []);
  if (count < minimumSeasonDays) {
    const mean = series.reduce((sum, cost) => sum + cost, 0) / count;
    if (mean <= 0) return factors;
    for (let index = 0; index < count; index += 1) {
      ratios[weekday(firstDay + index)]!.push(series[index]! / mean);
    }
  }
  for (let index = Math.max(3, count - seasonDays + 3); index <= count - 4; index += 1) {
    if (count < minimumSeasonDays) break;
    let weekTotal = 0;
    for (let offset = -3; offset <= 3; offset += 1) weekTotal += series[index + offset]!;
    if (weekTotal <= 0) continue;
    ratios[weekday(firstDay + index)]!.push(series[index]! / (weekTotal / 7));
  }
  for (let day = 0; day < 7; day += 1) {
    const seen = ratios[day]!;
    if (seen.length === 0) continue;
    factors[day] = median(seen);
  }
  const mean = factors.reduce((sum, factor) => sum + factor, 0) / 7;
  for (let day = 0; day < 7; day += 1) factors[day] = mean > 0 ? factors[day]! / mean : 1;
  // A weekday that costs nothing must not divide the level to infinity.
  for (let day = 0; day < 7; day += 1) if (!(factors[day]! > 0.01)) factors[day] = 0.01;
  return factors;
}

// Noise from day-to-day differences (a step moves one of them, a trend none much): MAD-based.
function estimateNoise(values: Float64Array): number {
  if (values.length < 3) return 0;
  const differences: number[] = [];
  for (let index = 1; index < values.length; index += 1) {
    differences.push(Math.abs(values[index]! - values[index - 1]!));
  }
  return (1.4826 * median(differences)) / Math.SQRT2;
}

// The latest step in the last four weeks: the split of least absolute deviation from two medians,
// taken when it stands clear of the noise and has lasted at least two days.
function findShift(
  values: Float64Array,
  slope: number,
  noise: number,
): { days: number; size: number } | undefined {
  const count = values.length;
  const windowLength = Math.min(count, shiftWindowDays);
  if (windowLength < minimumShiftDays + 7) return undefined;
  const window: number[] = [];
  for (let index = count - windowLength; index < count; index += 1) {
    window.push(values[index]! + slope * (count - 1 - index));
  }
  let best: { days: number; size: number; cost: number } | undefined;
  for (let after = minimumShiftDays; after <= windowLength - 7; after += 1) {
    const before = window.slice(0, windowLength - after);
    const since = window.slice(windowLength - after);
    const beforeMedian = median(before);
    const sinceMedian = median(since);
    const cost = sumDeviations(before, beforeMedian) + sumDeviations(since, sinceMedian);
    if (!best || cost < best.cost) best = { days: after, size: sinceMedian - beforeMedian, cost };
  }
  if (!best) return undefined;
  const reference = Math.abs(median(window));
  if (Math.abs(best.size) <= Math.max(shiftNoiseDeviations * noise, minimumShiftShare * reference)) {
    return undefined;
  }
  const beforeMedian = median(window.slice(0, windowLength - best.days));
  const direction = Math.sign(best.size);
  const agreeing = window
    .slice(windowLength - best.days)
    .filter((value) => (value - beforeMedian) * direction > Math.abs(best.size) / 2).length;
  if (agreeing < Math.ceil(shiftAgreement * best.days)) return undefined;
  return { days: best.days, size: best.size };
}

interface Band {
  total: readonly [number, number];
  daily: (ahead: number) => readonly [number, number];
}

type Regime = 'calm' | 'step' | 'disagreeing';

// The method's own relative errors over the past: for every past day with enough history before it
// and `horizon` days after, the forecast of those days against what they cost, as a whole (the
// period's band) and day by day (the chart's). A horizon longer than the past allows takes the
// longest it does, widened by the square root of the ratio. Each past forecast is made as today's
// is, guard included, and labelled with its regime: its latest `recent` days disagreeing with the
// model fitted before them beyond the usual (the 80th percentile of that disagreement's size over
// the past), else a step found in the last two weeks, else calm. Today's band is the quantile of
// its own regime's errors (split conformal within the regime), never narrower than the pooled
// one nor, while disagreeing, than the disagreement itself.
function calibrateBand(
  series: Float64Array,
  firstDay: number,
  horizon: number,
  recent: number,
): { band: Band; guard?: Guard } {
  const fallback = [-fallbackBandShare, fallbackBandShare] as const;
  const count = series.length;
  const firstOrigin = minimumTrendDays;
  if (horizon === 0) return { band: { total: [0, 0], daily: () => [0, 0] } };
  const lastOrigin = (reach: number) => count - reach;
  let reach = horizon;
  while (reach > 1 && lastOrigin(reach) - minimumTrendDays + 1 < minimumBandSamples) reach -= 1;
  if (lastOrigin(reach) - minimumTrendDays + 1 < minimumBandSamples) {
    return { band: { total: fallback, daily: () => fallback } };
  }
  // A model for each past origin replayed, those `recent` days before them, and today's.
  const models = new Map<number, ForecastModel>();
  const modelAt = (origin: number): ForecastModel | undefined => {
    if (origin < firstOrigin || origin > count) return undefined;
    let model = models.get(origin);
    if (!model) {
      model = fitModel(series.subarray(0, origin), firstDay);
      models.set(origin, model);
    }
    return model;
  };
  // The replayed origins' disagreement and today's, and the usual size of it.
  const readAt = (origin: number) => {
    const before = modelAt(origin - recent);
    const now = modelAt(origin);
    return before && now ? readRecent(series, firstDay, origin, recent, before, now) : undefined;
  };
  const recentReads = new Map<number, RecentRead>();
  for (const origin of [
    ...Array.from({ length: lastOrigin(reach) - firstOrigin + 1 }, (_, index) => firstOrigin + index),
    count,
  ]) {
    const read = readAt(origin);
    if (read) recentReads.set(origin, read);
  }
  const pastSizes = [...recentReads]
    .filter(([origin]) => origin < count)
    .map(([, read]) => Math.abs(read.disagreement));
  const usual =
    pastSizes.length >= minimumBandSamples ? readConformalQuantile(pastSizes, bandCoverage) : Infinity;
  const regimeAt = (origin: number): Regime => {
    const read = recentReads.get(origin);
    if (read && Math.abs(read.disagreement) > usual) return 'disagreeing';
    const sinceShift = modelAt(origin)?.sinceShift;
    return sinceShift !== undefined && sinceShift <= recentStepDays ? 'step' : 'calm';
  };
  // The learned weight, and further the farther the latest days stand beyond the usual: all the way
  // at `fullGuardUsuals` times it (a disagreement the past has rarely shown, whose lesson it cannot
  // teach).
  const guardAt = (origin: number, learned: number): Guard | undefined => {
    const read = recentReads.get(origin);
    if (!read || regimeAt(origin) !== 'disagreeing') return undefined;
    const beyond = Math.abs(read.disagreement) / usual;
    const forced = Math.min(
      1,
      Math.max(0, (beyond - startGuardUsuals) / (fullGuardUsuals - startGuardUsuals)),
    );
    const weight = Math.max(learned, forced);
    return weight > 0 ? { rateLevel: read.rateLevel, weight } : undefined;
  };
  const forecastTotal = (origin: number, guard: Guard | undefined) => {
    let predicted = 0;
    for (let ahead = 1; ahead <= reach; ahead += 1) {
      predicted += predictDay(modelAt(origin)!, firstDay + origin + ahead - 1, ahead, guard);
    }
    return predicted;
  };
  // How far toward the recent rate to fall back: the weight that did best over the series' own
  // past disagreeing days (their forecasts, blended, against what followed); half-way before the
  // past has shown enough of them.
  const disagreeing: { model: number; rate: number; actual: number }[] = [];
  for (let origin = minimumTrendDays; origin <= lastOrigin(reach); origin += 1) {
    if (regimeAt(origin) !== 'disagreeing') continue;
    let actual = 0;
    for (let ahead = 1; ahead <= reach; ahead += 1) actual += series[origin + ahead - 1]!;
    if (actual <= 0) continue;
    disagreeing.push({
      model: forecastTotal(origin, undefined),
      rate: forecastTotal(origin, guardAt(origin, 1)),
      actual,
    });
  }
  const weight =
    disagreeing.length < minimumGuardSamples
      ? 0.5
      : guardWeights.reduce(
          (best, candidate) => {
            const error = disagreeing.reduce(
              (sum, past) =>
                sum + Math.abs(((1 - candidate) * past.model + candidate * past.rate) / past.actual - 1),
              0,
            );
            return error < best.error ? { weight: candidate, error } : best;
          },
          { weight: 0, error: Infinity },
        ).weight;
  const guard = guardAt(count, weight);

  const widening = Math.sqrt(horizon / reach);
  const totals: { error: number; regime: Regime }[] = [];
  const daily: number[][] = Array.from({ length: reach }, () => []);
  for (let origin = minimumTrendDays; origin <= lastOrigin(reach); origin += 1) {
    const model = modelAt(origin)!;
    const pastGuard = guardAt(origin, weight);
    let predicted = 0;
    let actual = 0;
    for (let ahead = 1; ahead <= reach; ahead += 1) {
      const day = origin + ahead - 1;
      const dayPrediction = predictDay(model, firstDay + day, ahead, pastGuard);
      predicted += dayPrediction;
      actual += series[day]!;
      if (dayPrediction > 0) daily[ahead - 1]!.push(series[day]! / dayPrediction - 1);
    }
    if (predicted > 0) totals.push({ error: actual / predicted - 1, regime: regimeAt(origin) });
  }
  const readSize = (errors: number[]): number | undefined =>
    errors.length < minimumBandSamples
      ? undefined
      : readConformalQuantile(errors.map(Math.abs), bandCoverage);
  const pooled = readSize(totals.map((total) => total.error));
  if (pooled === undefined) return { band: { total: fallback, daily: () => fallback }, guard };
  const regime = regimeAt(count);
  const own = totals.filter((total) => total.regime === regime).map((total) => total.error);
  // A regime seen fewer times than a quantile needs answers its largest error seen, if wider.
  const ownSize = readSize(own) ?? (own.length > 0 ? Math.max(...own.map(Math.abs)) : pooled);
  const disagreement = Math.abs(recentReads.get(count)?.disagreement ?? 0);
  // The last days' sharpest disagreement, beyond its usual size, is a step too new to be sure of:
  // the band spans it.
  const pastSharpest = [...recentReads].filter(([origin]) => origin < count).map(([, read]) => read.sharpest);
  const sharpest = recentReads.get(count)?.sharpest ?? 0;
  const isSharp =
    pastSharpest.length >= minimumBandSamples && sharpest > readConformalQuantile(pastSharpest, bandCoverage);
  const size =
    Math.max(pooled, ownSize, regime === 'disagreeing' ? disagreement : 0, isSharp ? sharpest : 0) * widening;
  const scale = pooled > 0 ? size / (pooled * widening) : 1;
  const dailyBands = daily.map((errors) => {
    const dailySize = readSize(errors);
    return dailySize === undefined ? fallback : ([-dailySize * scale, dailySize * scale] as const);
  });
  return {
    band: {
      total: [-size, size],
      daily: (ahead) => dailyBands[Math.min(ahead, reach) - 1] ?? fallback,
    },
    guard,
  };
}

// The empirical quantile at rank ⌈(n+1)q⌉ (split conformal), so a band from few errors errs wide
// rather than narrow.
function readConformalQuantile(values: number[], share: number): number {
  const sorted = [...values].sort((first, second) => first - second);
  return sorted[Math.min(sorted.length, Math.ceil((sorted.length + 1) * share)) - 1]!;
}
