import { describe, expect, it } from 'vitest';
import { formatAlertDay } from './format-alert-day';

describe('an alert’s day', () => {
  it('is written as the cost screens write days', () => {
    expect(formatAlertDay('2026-11-05')).toBe('Nov 5, 2026');
  });
});
