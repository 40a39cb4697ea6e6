import { DrizzleQueryError } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CloudError } from '../cloud/cloud-provider';
import { describeFailure } from './describe-failure';
import { logRedactions, logSerializers } from './log';

const email = 'ada.lovelace@example.com';

// A logger shaped as the process's, writing to a string.
function createLog() {
  let written = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written += chunk.toString('utf8');
      done();
    },
  });
  const log = pino({ level: 'info', redact: logRedactions, serializers: logSerializers }, destination);
  return { log, read: () => written };
}

// A recording logger with no serializers: what describeFailure hands over must already be redacted.
function createBareLog() {
  const lines: { details: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    error(details: object, message: string) {
      lines.push({ details: details as Record<string, unknown>, message });
    },
  };
}

function createDatabaseError(): pg.DatabaseError {
  const error = new pg.DatabaseError(
    'duplicate key value violates unique constraint "app_user_email_key"',
    120,
    'error',
  );
  return Object.assign(error, {
    severity: 'ERROR',
    code: '23505',
    detail: `Key (email)=(${email}) already exists.`,
    where: `SQL statement "insert into app_user (email) values ('${email}')"`,
    constraint: 'app_user_email_key',
    table: 'app_user',
  });
}

const referenceSentence =
  /^An internal error occurred \(reference ([0-9a-f]{8})\); the details are in the server log\.$/;

describe('describeFailure', () => {
  it('answers a plain sentence for a PostgreSQL error and logs it under the reference, without the row', () => {
    const log = createBareLog();
    const text = describeFailure(createDatabaseError(), log);
    const reference = referenceSentence.exec(text)?.[1];
    expect(reference).toBeDefined();
    expect(text).not.toContain(email);
    expect(log.lines).toHaveLength(1);
    const { details } = log.lines[0]!;
    expect(details.reference).toBe(reference);
    const logged = details.err as Record<string, unknown>;
    expect(logged.code).toBe('23505');
    expect(logged.constraint).toBe('app_user_email_key');
    expect(logged.message).toContain('app_user_email_key');
    expect(JSON.stringify({ ...logged, stack: (logged as unknown as Error).stack })).not.toContain(email);
  });

  it('keeps the SQL of a drizzle query error and drops its parameters, from the message and the stack too', () => {
    const cause = createDatabaseError();
    const error = new DrizzleQueryError(
      'insert into "app_user" ("email") values ($1)',
      [email, 's3cret-hash'],
      cause,
    );
    const { log, read } = createLog();
    const text = describeFailure(error, log);
    expect(text).toMatch(referenceSentence);
    const line = read();
    expect(line).toContain('insert into \\"app_user\\" (\\"email\\") values ($1)');
    expect(line).toContain('23505');
    expect(line).toContain(text.match(referenceSentence)![1]);
    expect(line).not.toContain(email);
    expect(line).not.toContain('s3cret-hash');
    // The original error is untouched for whoever else holds it.
    expect(error.params).toEqual([email, 's3cret-hash']);
    expect(cause.detail).toContain(email);
  });

  it('takes the refused input out of a PostgreSQL message', () => {
    const error = Object.assign(
      new pg.DatabaseError(`invalid input syntax for type uuid: "${email}"`, 90, 'error'),
      {
        severity: 'ERROR',
        code: '22P02',
      },
    );
    const { log, read } = createLog();
    describeFailure(error, log);
    expect(read()).toContain('invalid input syntax for type uuid: [redacted]');
    expect(read()).not.toContain(email);
  });

  it('keeps a cloud error’s own message, which is written for users, and logs nothing', () => {
    const log = createBareLog();
    const error = new CloudError(
      'throttled',
      'Resizing vm-1: HTTP 429: Too many requests, retry later.',
      429,
    );
    expect(describeFailure(error, log)).toBe(error.message);
    expect(log.lines).toEqual([]);
  });

  it('never shows a plain error’s message, and logs it whole', () => {
    const { log, read } = createLog();
    const text = describeFailure(new TypeError("Cannot read properties of undefined (reading 'size')"), log);
    expect(text).toMatch(referenceSentence);
    expect(text).not.toContain('size');
    const logged = JSON.parse(read()) as { err: { type: string; message: string }; reference: string };
    expect(logged.err).toMatchObject({
      type: 'TypeError',
      message: "Cannot read properties of undefined (reading 'size')",
    });
    expect(text).toContain(logged.reference);
  });
});

describe('the error log', () => {
  it('redacts the values of a database error logged directly', () => {
    const { log, read } = createLog();
    const error = new DrizzleQueryError('select 1 where $1 = $2', [email, 7], createDatabaseError());
    log.error({ err: error }, 'unexpected failure');
    expect(read()).toContain('select 1 where $1 = $2');
    expect(read()).not.toContain(email);
  });
});
