import { z } from 'zod';
import { createQueryIntegerSchema, isoDateTimeSchema } from './common';
import { pageSize } from './paging';
import { resourceIdSchema } from './resources';

// GET /api/v1/log and GET /api/v1/log/{offset}, optionally for one resource.
export const activityLogQuerySchema = z.object({ resourceId: resourceIdSchema.optional() });
export type ActivityLogQuery = z.infer<typeof activityLogQuerySchema>;

export const activityLogParamsSchema = z.object({ offset: createQueryIntegerSchema(0, 1_000_000_000) });
export type ActivityLogParams = z.input<typeof activityLogParamsSchema>;

// SPEC §7: the page's first record minus 1, where page N starts at record 30 x (N - 1) + 1.
export function getActivityLogOffset(page: number): number {
  return pageSize * (page - 1);
}

// Any field may be missing; the web shows 'N/A' for it.
export const activityLogEntrySchema = z.object({
  ServiceName: z.string().nullable(),
  ResourceId: z.string().nullable(),
  LogText: z.string().nullable(),
  RowCreated: isoDateTimeSchema.nullable(),
});
export type ActivityLogEntry = z.infer<typeof activityLogEntrySchema>;

export const activityLogResponseSchema = z.array(activityLogEntrySchema);
export type ActivityLogResponse = z.infer<typeof activityLogResponseSchema>;
