import { describe, expect, it } from 'vitest';
import { Lane, runWithConcurrency } from './concurrency';

describe('Lane', () => {
  it('runs queued work one piece at a time, in order, and goes on after a failure', async () => {
    const lane = new Lane();
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
