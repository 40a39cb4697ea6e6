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

// Timestamps travel as ISO 8601 strings; an offset is allowed so a server in another zone still parses.
export const isoDateTimeSchema = z.iso.datetime({ offset: true });

// Optional form text: absent, null and blank all arrive as ''.
export const optionalTextSchema = z
  .string()
  .trim()
  .max(200)
  .nullish()
  .transform((value) => value ?? '');

// Azure and our own ids are GUIDs. `z.guid()` rather than `z.uuid()`: Azure and seeded data use ids whose
// version nibble is not an RFC 4122 one.
export function createGuidSchema(label: string) {
  return z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.guid({ error: `${label} must be a GUID such as 00000000-0000-0000-0000-000000000000.` }));
}

// Query strings carry text, but a caller building one may hold a number; both are accepted. A blank value is
// refused rather than read as 0, which `z.coerce.number()` would do.
export function createQueryIntegerSchema(min: number, max: number) {
  return z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+$/, { error: 'Expected a whole number.' }),
    ])
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}
