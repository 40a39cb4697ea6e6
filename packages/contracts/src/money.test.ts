import { describe, expect, it } from 'vitest';
import { formatDollars, formatMoney, roundCents } from './money';

describe('money', () => {
  it('rounds to the cent', () => {
    expect(roundCents(12.345678)).toBe(12.35);
    expect(roundCents(1000)).toBe(1000);
  });

  it('writes dollars with a $ prefix, thousands separators and 2 decimals, the sign first', () => {
    expect(formatDollars(1234.5)).toBe('$1,234.50');
    expect(formatDollars(0)).toBe('$0.00');
    expect(formatDollars(-12.5)).toBe('-$12.50');
  });

  it("writes an amount in its bill's currency with the code after it", () => {
    expect(formatMoney(1234.5, 'EUR')).toBe('1,234.50 EUR');
    expect(formatMoney(-3, 'USD')).toBe('-3.00 USD');
  });
});
