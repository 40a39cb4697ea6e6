import { z } from 'zod';

// The error body every failed call answers with. `field` names the offending input on a 400.
export const errorResponseSchema = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  field: z.string().optional(),
  requestId: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

// A plain confirmation body for calls whose answer SPEC does not show.
export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

export const emailAddressSchema = z.string().trim().toLowerCase().pipe(z.email().max(254));

// SPEC's `Data` wrapper around lists and maps.
export function dataWrapper<T extends z.ZodType>(inner: T) {
  return z.object({ Data: inner });
}
