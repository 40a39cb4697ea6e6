import { describe, expect, it } from 'vitest';
import { describeBillGap } from './cost-bill-gap';

describe('describeBillGap', () => {
  const range = { from: '2026-10-01', to: '2026-10-31' };

  it('says nothing for a complete range', () => {
    expect(
      describeBillGap({ Complete: true, DaysRead: { From: range.from, To: range.to } }, range),
    ).toBeNull();
  });

  it('names the days not in yet while the bill is being read', () => {
    expect(
      describeBillGap({ Complete: false, DaysRead: { From: '2026-10-25', To: '2026-10-31' } }, range),
    ).toBe(
      'The bill is still being read from Azure: Oct 1, 2026 to Oct 24, 2026 not in yet, so these figures are partial (in from Oct 25, 2026).',
    );
    expect(describeBillGap({ Complete: false, DaysRead: null }, range)).toBe(
      'The bill is still being read from Azure: no day from Oct 1, 2026 to Oct 31, 2026 is in yet, so these figures are partial.',
    );
  });
});
