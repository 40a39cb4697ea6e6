import type { FieldError } from 'react-hook-form';

/** The contract refuses a blank name with zod's generic wording; the form names the field instead. */
export function getRequiredNameError(label: string, error: FieldError | undefined): string | undefined {
  if (!error) return undefined;
  return error.type === 'too_small' ? `${label} is required.` : error.message;
}
