// SPEC §9: the y-axis reaches 1.2 times the highest value, percentages carry '%', and values of a
// million or more are abbreviated with M.
export const yAxisHeadroom = 1.2;
export const millionThreshold = 1_000_000;
export const defaultChartHeight = 220;

/** An all-zero (or empty) series still gets a visible axis. */
export function getChartYMax(values: readonly number[]): number {
  const highest = values.reduce((max, value) => (Number.isFinite(value) && value > max ? value : max), 0);
  return highest > 0 ? highest * yAxisHeadroom : 1;
}

function formatNumber(value: number, maximumFractionDigits: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits });
}

export function formatChartValue(value: number | null | undefined, suffix = ''): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  if (Math.abs(value) >= millionThreshold) return `${formatNumber(value / millionThreshold, 1)}M${suffix}`;
  return `${formatNumber(value, Math.abs(value) >= 100 ? 0 : 2)}${suffix}`;
}
