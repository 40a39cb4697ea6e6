import { describe, expect, it } from 'vitest';
import { formatUtcDateTime } from './format-date-time';

describe('formatUtcDateTime', () => {
  it('shows the UTC clock time in the locale’s format with UTC appended', () => {
    // ICU versions differ in the space before PM.
    expect(formatUtcDateTime('2026-03-04T17:05:09Z', { locale: 'en-US' })).toMatch(
      /^3\/4\/2026, 5:05:09\sPM UTC$/u,
    );
    expect(formatUtcDateTime('2026-03-04T17:05:09+02:00', { locale: 'en-GB' })).toBe(
      '04/03/2026, 15:05:09 UTC',
    );
  });

  it('drops the seconds and shortens the date when compact', () => {
    expect(formatUtcDateTime('2026-03-04T17:05:09Z', { locale: 'en-GB', isCompact: true })).toBe(
      '04/03/2026, 17:05 UTC',
    );
  });

  it('shows N/A for a missing or unreadable time', () => {
    expect(formatUtcDateTime(null)).toBe('N/A');
    expect(formatUtcDateTime(undefined)).toBe('N/A');
    expect(formatUtcDateTime('not a date')).toBe('N/A');
  });
});
