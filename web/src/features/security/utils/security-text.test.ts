import { describe, expect, it } from 'vitest';
import {
  buildFindingQuery,
  defaultFindingFilters,
  describeMute,
  readMuteRange,
  toggleSort,
  validateMuteDraft,
} from './security-text';

const now = new Date('2026-11-27T15:00:00Z');

describe('security page text and rules', () => {
  it('builds the list query from the filters, leaving out the empty ones', () => {
    expect(buildFindingQuery(defaultFindingFilters, 30)).toBe(
      'offset=30&Sort=Severity&Order=desc&Status=open',
    );
    expect(
      buildFindingQuery(
        { ...defaultFindingFilters, status: '', severity: 'high', checkId: 'sql-auditing', search: ' web ' },
        0,
      ),
    ).toBe('offset=0&Sort=Severity&Order=desc&Severity=high&CheckId=sql-auditing&Search=web');
  });

  it('sorts by a new column first, then flips its order', () => {
    const byName = toggleSort(defaultFindingFilters, 'ResourceName');
    expect(byName).toMatchObject({ sort: 'ResourceName', order: 'asc' });
    expect(toggleSort(byName, 'ResourceName').order).toBe('desc');
  });

  it('bounds a mute from tomorrow to a year out and asks for a reason', () => {
    expect(readMuteRange(now)).toEqual({ min: '2026-11-28', max: '2027-11-27', suggested: '2026-12-27' });
    expect(validateMuteDraft({ reason: 'ok', until: '2026-11-27' }, now)).toEqual({
      Reason: 'Say why, in 3 to 500 characters.',
      Until: 'Pick a day from 2026-11-28 to 2027-11-27.',
    });
    expect(validateMuteDraft({ reason: 'Legacy client', until: '2027-11-27' }, now)).toEqual({});
  });

  it('says who muted and why, and whether a rule did', () => {
    expect(describeMute({ Mute: null })).toBeNull();
    expect(
      describeMute({ Mute: { Reason: 'Vendor fix due', Until: '2026-12-31', By: 'a@b.c', RuleId: 'r' } }),
    ).toBe('Muted until 2026-12-31 by a mute rule by a@b.c: Vendor fix due');
  });
});
