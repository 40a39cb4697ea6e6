import { describe, expect, it } from 'vitest';
import { BoundedWork, Limiter, retry, runWithConcurrency, settleAll } from './concurrency';

describe('Limiter of one (a lane)', () => {
  it('runs queued work one piece at a time, in order, and goes on after a failure', async () => {
    const lane = new Limiter(1);
    const events: string[] = [];
    const step =
      (name: string, shouldFail = false) =>
      async () => {
        events.push(`${name} start`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        events.push(`${name} end`);
        if (shouldFail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      lane.run(step('a')),
      lane.run(step('b', true)),
      lane.run(step('c')),
    ]);
    expect(events).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});

describe('settleAll', () => {
  it('returns once every piece has ended, throwing the first failure', async () => {
    let isSlowDone = false;
    const slow = new Promise<void>((resolve) =>
      setTimeout(() => {
        isSlowDone = true;
        resolve();
      }, 20),
    );
    const failure = settleAll([
      Promise.reject(new Error('first')),
      slow,
      Promise.reject(new Error('second')),
    ]);
    await expect(failure).rejects.toThrow('first');
    expect(isSlowDone).toBe(true);
  });

  it('resolves when every piece succeeds', async () => {
    await expect(settleAll([Promise.resolve(1), Promise.resolve('two')])).resolves.toBeUndefined();
  });
});

describe('runWithConcurrency', () => {
  it('keeps at most the limit in flight and does every item', async () => {
    let inFlight = 0;
    let peak = 0;
    const done: number[] = [];
    await runWithConcurrency([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      done.push(item);
      inFlight -= 1;
    });
    expect(peak).toBe(3);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('BoundedWork', () => {
  it('lets the producer go on while at most the limit runs, and ends every piece once', async () => {
    const work = new BoundedWork(2);
    const releases: (() => void)[] = [];
    const ended: number[] = [];
    let inFlight = 0;
    let peak = 0;
    const piece = (item: number) => async () => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise<void>((resolve) => releases.push(resolve));
      inFlight -= 1;
      ended.push(item);
    };
    await work.start(piece(1));
    await work.start(piece(2));
    // A third waits for a free place: it has not begun until one of the two ends.
    let isThirdStarted = false;
    const third = work.start(piece(3)).then(() => (isThirdStarted = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(isThirdStarted).toBe(false);
    releases.shift()!();
    await third;
    expect(isThirdStarted).toBe(true);
    const finished = work.finish();
    while (releases.length > 0) {
      releases.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await finished;
    expect(peak).toBe(2);
    expect(ended.sort()).toEqual([1, 2, 3]);
  });

  it('starts nothing after a failure, waits for what began and throws the failure', async () => {
    const work = new BoundedWork(2);
    let isSlowEnded = false;
    let release!: () => void;
    await work.start(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      isSlowEnded = true;
    });
    await work.start(() => Promise.reject(new Error('write failed')));
    await new Promise((resolve) => setImmediate(resolve));
    let isLateRun = false;
    await expect(work.start(async () => void (isLateRun = true))).rejects.toThrow('write failed');
    expect(isLateRun).toBe(false);
    const finished = work.finish();
    release();
    await expect(finished).rejects.toThrow('write failed');
    expect(isSlowEnded).toBe(true);
  });
});

describe('retry', () => {
  it('tries again until the work succeeds, at most the attempts given', async () => {
    let calls = 0;
    const flaky = async () => {
      calls += 1;
      if (calls < 3) throw new Error(`failure ${calls}`);
      return 'written';
    };
    await expect(retry(flaky, { attempts: 3, delayMs: 0 })).resolves.toBe('written');
    expect(calls).toBe(3);
    calls = 0;
    await expect(retry(flaky, { attempts: 2, delayMs: 0 })).rejects.toThrow('failure 2');
    expect(calls).toBe(2);
  });
});

describe('Limiter', () => {
  it('runs at most the limit at once across callers, the others in order of arrival, after failures too', async () => {
    const limiter = new Limiter(2);
    let running = 0;
    let peak = 0;
    const started: string[] = [];
    const step =
      (name: string, shouldFail = false) =>
      async () => {
        started.push(name);
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        if (shouldFail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled(
      ['a', 'b', 'c', 'd', 'e'].map((name) => limiter.run(step(name, name === 'b'))),
    );
    expect(peak).toBe(2);
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    // Every place was given back: two more start at once.
    running = 0;
    peak = 0;
    await Promise.all([limiter.run(step('f')), limiter.run(step('g'))]);
    expect(peak).toBe(2);
  });
});
