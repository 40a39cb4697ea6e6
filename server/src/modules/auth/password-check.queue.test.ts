import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-errors';
import { loginBusyText, PasswordCheckQueue } from './password-check.queue';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('PasswordCheckQueue', () => {
  it('runs at most `concurrency` checks at once, the waiting ones in arrival order', async () => {
    const queue = new PasswordCheckQueue(2, 10);
    const checks = Array.from({ length: 5 }, () => deferred());
    const started: number[] = [];
    const runs = checks.map((check, index) =>
      queue.run(async () => {
        started.push(index);
        await check.promise;
        return index;
      }),
    );
    const outcomes = Promise.allSettled(runs);
    await settle();
    expect(started).toEqual([0, 1]);
    checks[1]!.resolve();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    checks[0]!.reject(new Error('argon2 failed'));
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const check of checks.slice(2)) check.resolve();
    expect(await outcomes).toMatchObject([
      { status: 'rejected' },
      { status: 'fulfilled', value: 1 },
      { status: 'fulfilled', value: 2 },
      { status: 'fulfilled', value: 3 },
      { status: 'fulfilled', value: 4 },
    ]);
    // Every place was given back: two run at once again.
    const [first, second] = [deferred(), deferred()];
    const both: number[] = [];
    const again = [first, second].map((check, index) =>
      queue.run(async () => {
        both.push(index);
        await check.promise;
      }),
    );
    await settle();
    expect(both).toEqual([0, 1]);
    first.resolve();
    second.resolve();
    await Promise.all(again);
  });

  it('refuses a check at once with 503 when `waitingLimit` checks already wait', async () => {
    const queue = new PasswordCheckQueue(1, 1);
    const running = deferred();
    const first = queue.run(() => running.promise);
    const second = queue.run(() => Promise.resolve());
    const refused = await queue.run(() => Promise.resolve()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ statusCode: 503, message: loginBusyText });
    running.resolve();
    await Promise.all([first, second]);
  });
});
