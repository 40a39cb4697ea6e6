import type { z } from 'zod';
import { ApiError } from './api-client';

/** Messages by the request's field path, as the server names them: `Amount`, `scope.tags.0.value`. */
export type FieldErrors = Record<string, string>;

/** Where a message with no field of its own is kept. */
export const formErrorKey = '';

/** The contract's first message for each field; empty when the value may be sent. */
export function checkWithSchema(schema: z.ZodType, value: unknown): FieldErrors {
  const parsed = schema.safeParse(value);
  const errors: FieldErrors = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    errors[issue.path.join('.')] ??= issue.message;
  }
  return errors;
}

/** A refused save's message, by the field the server named (its `field: ` prefix taken off). */
export function readSaveErrors(error: Error): FieldErrors {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) {
    return { [formErrorKey]: error.message };
  }
  const body = error.body as { field?: unknown; message?: unknown };
  const field = typeof body.field === 'string' ? body.field : formErrorKey;
  const message = typeof body.message === 'string' ? body.message : error.message;
  return { [field]: field && message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message };
}
