import { describe, expect, it } from 'vitest';
import { activityLogParamsSchema, activityLogResponseSchema, getActivityLogOffset } from './activity';

describe('activity log', () => {
  it('offsets page N by 30 x (N - 1)', () => {
    expect(getActivityLogOffset(1)).toBe(0);
    expect(getActivityLogOffset(3)).toBe(60);
  });

  it('reads a whole, non-negative offset from the path', () => {
    expect(activityLogParamsSchema.parse({ offset: '30' })).toEqual({ offset: 30 });
    for (const offset of ['-1', '1.5', 'x', '']) {
      expect(activityLogParamsSchema.safeParse({ offset }).success).toBe(false);
    }
  });

  it('allows missing values, which show as N/A', () => {
    const entry = { ServiceName: null, ResourceId: null, LogText: null, RowCreated: null };
    expect(activityLogResponseSchema.safeParse([entry]).success).toBe(true);
    expect(
      activityLogResponseSchema.safeParse([{ ...entry, RowCreated: '2025-01-01T10:00:00Z' }]).success,
    ).toBe(true);
  });
});
