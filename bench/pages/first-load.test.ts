// SPEC's page budgets as a check of `npm test`, which builds web/dist before its unit tests: the
// JavaScript fetched before the first paint, gzip, ≤ 110 KB for /login and ≤ 180 KB for /resources.
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureWebDist, formatFirstLoad, measureFirstLoad, type FirstLoadFigure } from './first-load';

let figures: ReturnType<typeof measureFirstLoad>;

beforeAll(() => {
  ensureWebDist();
  figures = measureFirstLoad();
}, 180_000);

function describeFigure(figure: FirstLoadFigure): string {
  return `${figure.gzipKb.toFixed(1)} KB gzip (budget ${figure.budgetKb} KB) in ${figure.files.join(', ')}`;
}

describe('first-load JavaScript budgets', () => {
  it('keeps /login (the public area) within 110 KB gzip', () => {
    console.log(formatFirstLoad('publicArea', figures.publicArea));
    expect(figures.publicArea.gzipKb, describeFigure(figures.publicArea)).toBeLessThanOrEqual(110);
  });

  it('keeps /resources (the signed-in shell) within 180 KB gzip', () => {
    console.log(formatFirstLoad('signedInShell', figures.signedInShell));
    expect(figures.signedInShell.gzipKb, describeFigure(figures.signedInShell)).toBeLessThanOrEqual(180);
  });

  it('leaves zod out of the public area, and the charts (uPlot) out of both first loads', () => {
    expect(figures.publicArea.files.join(' ')).not.toMatch(/\bzod-/);
    for (const figure of [figures.publicArea, figures.signedInShell]) {
      expect(figure.files.join(' ')).not.toMatch(/time-series-chart-canvas/);
    }
  });
});
