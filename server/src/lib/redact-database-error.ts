// A database error names the statement that failed and, through the driver, the values it carried:
// drizzle's query error prints its `params` into its message, PostgreSQL's `detail` quotes the row
// ("Key (email)=(ada@example.com) already exists."), `where` and `internalQuery` can carry a
// function's values, and a message can end on the input it refused ('invalid input syntax for type
// uuid: "…"'). Those are users' data (addresses, names, tokens' hashes): the log keeps the SQL, the
// error's code and the constraint, never the values.
export const redactedText = '[redacted]';

const valueFields = ['detail', 'where', 'internalQuery'] as const;
const maximumDepth = 8;

// A copy of the error with every value taken out, causes included; anything else comes back as is.
export function redactDatabaseError(error: unknown): unknown {
  return redact(error, 0);
}

function redact(error: unknown, depth: number): unknown {
  if (!(error instanceof Error) || depth > maximumDepth) return error;
  const fields = error as Error & Record<string, unknown>;
  const isQueryError = typeof fields.query === 'string' && 'params' in fields;
  const isDatabaseError = typeof fields.severity === 'string' && typeof fields.code === 'string';
  const cause = redact(fields.cause, depth + 1);
  const errors = Array.isArray(fields.errors)
    ? fields.errors.map((inner: unknown) => redact(inner, depth + 1))
    : undefined;
  const isCauseChanged = cause !== fields.cause;
  const areErrorsChanged =
    errors !== undefined && errors.some((inner, index) => inner !== fields.errors?.[index as never]);
  if (!isQueryError && !isDatabaseError && !isCauseChanged && !areErrorsChanged) return error;

  const copy = Object.create(
    Object.getPrototypeOf(error) as object,
    Object.getOwnPropertyDescriptors(error),
  ) as Error & Record<string, unknown>;
  let message = error.message;
  if (isQueryError) {
    message = `Failed query: ${String(fields.query)}\nparams: ${redactedText}`;
    copy.params = redactedText;
  }
  if (isDatabaseError) {
    message = redactQuotedValue(message);
    for (const field of valueFields) if (fields[field] !== undefined) copy[field] = redactedText;
  }
  if (message !== error.message) {
    copy.message = message;
    if (typeof error.stack === 'string') copy.stack = error.stack.replace(error.message, message);
  }
  if (isCauseChanged) copy.cause = cause;
  if (areErrorsChanged) copy.errors = errors;
  return copy;
}

// 'invalid input syntax for type uuid: "x"', 'value "99999999999" is out of range for type integer'.
function redactQuotedValue(message: string): string {
  return message
    .replace(/: "(?:[^"]|"")*"$/, `: ${redactedText}`)
    .replace(/^value "(?:[^"]|"")*"/, `value ${redactedText}`);
}
