// The prediction methods by id, with the short text the automation view shows.
export const predictionMethodIds = ['advisor-p95', 'cloudtrim-forecast', 'backtest-pick'] as const;
export type PredictionMethodId = (typeof predictionMethodIds)[number];

export const predictionMethodShortTexts: Readonly<Record<PredictionMethodId, string>> = {
  'advisor-p95': 'Azure Advisor rule (P95, 7 days)',
  'cloudtrim-forecast': 'Forecast of the next 14 days',
  'backtest-pick': 'Best method by backtest',
};

export function isPredictionMethodId(value: string): value is PredictionMethodId {
  return (predictionMethodIds as readonly string[]).includes(value);
}
