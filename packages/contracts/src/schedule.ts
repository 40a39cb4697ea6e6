import { z } from 'zod';
import { dataWrapper, isoDateTimeSchema } from './common';
import { resourceIdSchema } from './resources';

// GET api/v1/resource/schedule, optionally for one resource.
export const scheduleQuerySchema = z.object({ resourceId: resourceIdSchema.optional() });
export type ScheduleQuery = z.infer<typeof scheduleQuerySchema>;

// Version is text; null shows 'N/A'.
export const scheduledChangeSchema = z.object({
  Id: z.number().int().positive(),
  ResourceId: z.string(),
  FriendlyName: z.string(),
  ChangeDateTime: isoDateTimeSchema,
  NewSize: z.string(),
  Version: z.string().nullable(),
});
export type ScheduledChange = z.infer<typeof scheduledChangeSchema>;

// What our server answers.
export const scheduleResponseSchema = dataWrapper(z.array(scheduledChangeSchema));
export type ScheduleResponse = z.infer<typeof scheduleResponseSchema>;

// SPEC §7 has the web accept a bare array as well as {Data}, and ChangeDateTime in either letter casing;
// an absent or numeric Version is taken too.
const receivedChangeSchema = z
  .looseObject({
    ChangeDateTime: z.unknown().optional(),
    changeDateTime: z.unknown().optional(),
    Version: z.union([z.string(), z.number()]).nullish(),
  })
  .transform(({ changeDateTime, ...change }) => ({
    ...change,
    ChangeDateTime: change.ChangeDateTime ?? changeDateTime,
    Version: change.Version == null ? null : String(change.Version),
  }))
  .pipe(scheduledChangeSchema);

const receivedScheduleSchema = z.union([
  z.array(receivedChangeSchema),
  z.object({ Data: z.array(receivedChangeSchema) }).transform(({ Data }) => Data),
]);

// Throws a ZodError when the body is neither shape.
export function normalizeScheduleResponse(body: unknown): ScheduledChange[] {
  return receivedScheduleSchema.parse(body);
}
